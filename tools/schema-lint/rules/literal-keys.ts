/**
 * What a `{ a, b: x, c }` object literal in source text sets: the translations lint reads the
 * values a `t('key', { … })` call fills and the payload keys a server error answer carries.
 */

/** The names a `{ a, b: x, c }` object literal at `text[start]` sets, or undefined if unsure. */
export function literalKeys(text: string, start: number): string[] | undefined {
  let depth = 0
  let end = start
  for (; end < text.length; end++) {
    if (text[end] === '{') depth++
    else if (text[end] === '}' && --depth === 0) break
  }
  if (depth !== 0) return undefined
  const body = text.slice(start + 1, end)
  if (body.includes('...')) return undefined
  // top-level entries only: drop nested braces/brackets/parens first
  let flat = body
  for (let previous = ''; previous !== flat; ) {
    previous = flat
    flat = flat.replace(/\{[^{}]*\}|\[[^[\]]*\]|\([^()]*\)/g, '')
  }
  return flat
    .split(',')
    .map((entry) => entry.trim().match(/^([A-Za-z_$][\w$]*)\s*(:|$)/)?.[1])
    .filter((name): name is string => name !== undefined)
}
