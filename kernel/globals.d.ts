/**
 * The few web-platform globals every host of the kernel has (browsers, Node ≥ 20, workers),
 * declared with just the members the kernel uses, so kernel/ compiles with neither the DOM nor
 * the Node types (kernel/tsconfig.json). Only kernel/tsconfig.json reads this file; the engine's
 * and the server's configs take the full declarations from the DOM or Node types.
 * CSSStyleSheet and Storage exist only in browsers: the experiment client feature-detects the one
 * and receives the other, so both may be absent at run time.
 */
declare class URLSearchParams implements Iterable<[string, string]> {
  constructor(init?: string | Record<string, string> | [string, string][] | URLSearchParams)
  readonly size: number
  append(name: string, value: string): void
  delete(name: string): void
  get(name: string): string | null
  getAll(name: string): string[]
  has(name: string): boolean
  set(name: string, value: string): void
  sort(): void
  toString(): string
  forEach(callback: (value: string, key: string) => void): void
  entries(): IterableIterator<[string, string]>
  keys(): IterableIterator<string>
  values(): IterableIterator<string>
  [Symbol.iterator](): IterableIterator<[string, string]>
}
declare class AbortSignal {
  readonly aborted: boolean
  readonly reason: unknown
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void
  removeEventListener(type: 'abort', listener: () => void): void
  static timeout(ms: number): AbortSignal
}
declare class AbortController {
  readonly signal: AbortSignal
  abort(reason?: unknown): void
}
declare function setTimeout(callback: () => void, ms?: number): unknown
declare function clearTimeout(id: unknown): void
declare function fetch(input: string, init?: unknown): Promise<unknown>
declare var console: { log(...data: unknown[]): void; warn(...data: unknown[]): void; error(...data: unknown[]): void; info(...data: unknown[]): void; debug(...data: unknown[]): void }
interface Storage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}
declare var CSSStyleSheet: { new (): { replaceSync(css: string): void }; prototype: object }
