/**
 * The client's real-time manager, one per socket (spec §4 "Real-time channels", §7, §9):
 * - a context message (SET_TREE_CTX with the dynamic ids, resetSubscribe) on every open of an
 *   events socket, then the
 *   punter's AUTH and every active subscription again (so a reconnect restores them all);
 * - subscribing sends once; unsubscribing sends a reset (GI and bet channel) or UNSUBSCRIBE;
 * - event subscriptions have display modes: FULL replaces SHORT for the same ids, and dropping
 *   FULL while SHORT is still wanted re-subscribes SHORT;
 * - dynamic event subscriptions (events shown in lists) are counted per id and sent as one
 *   debounced diff (100 ms);
 * - an error reconnects after 10 s; a close reconnects too while anything is subscribed;
 * - `whenConnected(task)` waits for the open by polling every 350 ms;
 * - a failing send is reported as "{type} message error".
 * Framework-free: the socket, the timers and the reporter are injected (tests pass fakes).
 */

export const RECONNECT_DELAY_MS = 10_000
export const CONNECTION_POLL_MS = 350
export const DYNAMIC_DEBOUNCE_MS = 100

export type DisplayMode = 'FULL' | 'SHORT'
export type BetChannelType = 'WATCH_ON_BET' | 'INACTIVE_SELECTION'

/** The part of a WebSocket the manager uses (readyState 0 connecting, 1 open, 2 closing, 3 closed). */
export interface SocketLike {
  readyState: number
  send(data: string): void
  close(code?: number): void
  onopen: ((event: unknown) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
}

export interface Timers {
  setTimeout(task: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export interface RealtimeOptions {
  url: string
  createSocket(url: string): SocketLike
  timers?: Timers
  /** Error reporting (spec §8: socket send errors are reported as '{type} message error'). */
  report?(message: string, error: unknown): void
  /** Whether this socket carries events, so opens with the tree context (SET_TREE_CTX). The
   * separated punter socket does not: the server answers a context there with WRONG_SOCKET. */
  events?: boolean
}

export type IncomingMessage = { type: string; treeId?: number; [field: string]: unknown }
type Listener = (message: IncomingMessage) => void

const OPEN = 1
const CONNECTING = 0

export class RealtimeManager {
  private socket: SocketLike | null = null
  private readonly timers: Timers
  private reconnectTimer: unknown = null
  private debounceTimer: unknown = null
  private stopped = true
  /** Event subscriptions: how many holders want each id in each mode. */
  private readonly fullCount = new Map<string, number>()
  private readonly shortCount = new Map<string, number>()
  /** The mode the server has been told per id. */
  private readonly sentMode = new Map<string, DisplayMode>()
  /** Dynamic subscriptions: holders per id, and the ids the server has been told. */
  private readonly dynamicCount = new Map<string, number>()
  private readonly dynamicSent = new Set<string>()
  private gambling = false
  private readonly betChannels = new Map<BetChannelType, string[]>()
  private credentials: { punterHash: string; accessToken: string } | null = null
  private readonly byTreeId = new Map<number, Set<Listener>>()
  private readonly byType = new Map<string, Set<Listener>>()

  constructor(private readonly options: RealtimeOptions) {
    this.timers = options.timers ?? { setTimeout: (t, ms) => setTimeout(t, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) }
  }

  /** Opens the socket (once); it stays up, reconnecting, until `stop()`. */
  start(): void {
    this.stopped = false
    if (!this.socket) this.open()
  }

  stop(): void {
    this.stopped = true
    this.cancel('reconnectTimer')
    this.cancel('debounceTimer')
    const socket = this.socket
    this.socket = null
    if (socket) {
      socket.onclose = socket.onerror = socket.onmessage = socket.onopen = null
      socket.close()
    }
  }

  get connected(): boolean {
    return this.socket?.readyState === OPEN
  }

  // ── event subscriptions (SUBSCRIBE / UNSUBSCRIBE) ──────────────────────────────────────────

  /** Follows events in a display mode; returns the release. */
  subscribeEvents(ids: readonly string[], mode: DisplayMode): () => void {
    const counts = mode === 'FULL' ? this.fullCount : this.shortCount
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1)
    this.syncModes(ids)
    let released = false
    return () => {
      if (released) return
      released = true
      for (const id of ids) {
        const left = (counts.get(id) ?? 1) - 1
        if (left > 0) counts.set(id, left)
        else counts.delete(id)
      }
      this.syncModes(ids)
    }
  }

  private wantedMode(id: string): DisplayMode | undefined {
    if (this.fullCount.has(id)) return 'FULL'
    return this.shortCount.has(id) ? 'SHORT' : undefined
  }

  /** Tells the server what changed: one SUBSCRIBE per mode, one UNSUBSCRIBE for the dropped. */
  private syncModes(ids: readonly string[]): void {
    const toMode: Record<DisplayMode, string[]> = { FULL: [], SHORT: [] }
    const dropped: string[] = []
    for (const id of new Set(ids)) {
      const wanted = this.wantedMode(id)
      if (wanted === this.sentMode.get(id)) continue
      if (wanted) {
        this.sentMode.set(id, wanted)
        toMode[wanted].push(id)
      } else {
        this.sentMode.delete(id)
        dropped.push(id)
      }
    }
    for (const mode of ['FULL', 'SHORT'] as const) if (toMode[mode].length) this.sendIfOpen({ type: 'SUBSCRIBE', displayMode: mode, ids: toMode[mode] })
    if (dropped.length) this.sendIfOpen({ type: 'UNSUBSCRIBE', ids: dropped })
  }

  // ── dynamic subscriptions (SET_TREE_CTX diff, debounced) ──────────────────────────────────

  addDynamic(ids: readonly string[]): () => void {
    for (const id of ids) this.dynamicCount.set(id, (this.dynamicCount.get(id) ?? 0) + 1)
    this.scheduleDiff()
    let released = false
    return () => {
      if (released) return
      released = true
      for (const id of ids) {
        const left = (this.dynamicCount.get(id) ?? 1) - 1
        if (left > 0) this.dynamicCount.set(id, left)
        else this.dynamicCount.delete(id)
      }
      this.scheduleDiff()
    }
  }

  private scheduleDiff(): void {
    if (this.debounceTimer !== null) return
    this.debounceTimer = this.timers.setTimeout(() => {
      this.debounceTimer = null
      this.flushDiff()
    }, DYNAMIC_DEBOUNCE_MS)
  }

  private flushDiff(): void {
    if (!this.connected) return // the context message on open carries the whole set
    const subscribe = [...this.dynamicCount.keys()].filter((id) => !this.dynamicSent.has(id))
    const unSubscribe = [...this.dynamicSent].filter((id) => !this.dynamicCount.has(id))
    if (!subscribe.length && !unSubscribe.length) return
    for (const id of subscribe) this.dynamicSent.add(id)
    for (const id of unSubscribe) this.dynamicSent.delete(id)
    this.send({ type: 'SET_TREE_CTX', ...(subscribe.length ? { subscribe } : {}), ...(unSubscribe.length ? { unSubscribe } : {}) })
  }

  // ── gambling (GI) and bet channels ─────────────────────────────────────────────────────────

  subscribeGambling(): void {
    if (this.gambling) return
    this.gambling = true
    this.sendIfOpen({ type: 'GI' })
  }

  unsubscribeGambling(): void {
    if (!this.gambling) return
    this.gambling = false
    this.sendIfOpen({ type: 'GI', resetSubscribe: true })
  }

  subscribeBetChannel(type: BetChannelType, ids: readonly string[] = []): void {
    const current = this.betChannels.get(type)
    if (current && current.length === ids.length && current.every((id, i) => id === ids[i])) return
    this.betChannels.set(type, [...ids])
    this.sendIfOpen({ type, ids: [...ids], resetSubscribe: true })
  }

  unsubscribeBetChannel(type: BetChannelType): void {
    if (!this.betChannels.delete(type)) return
    this.sendIfOpen({ type, resetSubscribe: true })
  }

  // ── the punter ─────────────────────────────────────────────────────────────────────────────

  /** The session the socket speaks for (null: a guest). Sent now, and again on every open. */
  authenticate(credentials: { punterHash: string; accessToken: string } | null): void {
    const same = credentials?.accessToken === this.credentials?.accessToken && credentials?.punterHash === this.credentials?.punterHash
    this.credentials = credentials
    if (credentials && !same) this.sendIfOpen({ type: 'AUTH', ...credentials })
  }

  // ── incoming ───────────────────────────────────────────────────────────────────────────────

  /** Event messages route by treeId (spec §7). */
  onTree(treeId: number, listener: Listener): () => void {
    return this.listen(this.byTreeId, treeId, listener)
  }

  /** Other messages route by type (casino for gambling, accountUpdate …, ERROR). */
  onType(type: string, listener: Listener): () => void {
    return this.listen(this.byType, type, listener)
  }

  private listen<K>(map: Map<K, Set<Listener>>, key: K, listener: Listener): () => void {
    let set = map.get(key)
    if (!set) map.set(key, (set = new Set()))
    set.add(listener)
    return () => {
      set.delete(listener)
      if (set.size === 0) map.delete(key)
    }
  }

  private receive(data: unknown): void {
    let message: IncomingMessage
    try {
      message = JSON.parse(String(data)) as IncomingMessage
    } catch {
      return
    }
    if (!message || typeof message.type !== 'string') return
    const listeners = typeof message.treeId === 'number' ? this.byTreeId.get(message.treeId) : this.byType.get(message.type)
    for (const listener of [...(listeners ?? [])]) {
      try {
        listener(message)
      } catch (error) {
        this.options.report?.(`${message.type} message handler error`, error)
      }
    }
  }

  // ── the connection ─────────────────────────────────────────────────────────────────────────

  private get needed(): boolean {
    return !this.stopped
  }

  private open(): void {
    this.cancel('reconnectTimer')
    let socket: SocketLike
    try {
      socket = this.options.createSocket(this.options.url)
    } catch (error) {
      this.options.report?.('socket open error', error)
      this.scheduleReconnect()
      return
    }
    this.socket = socket
    socket.onopen = () => this.replay()
    socket.onmessage = (event) => this.receive(event.data)
    socket.onerror = () => this.scheduleReconnect()
    socket.onclose = () => {
      if (this.socket === socket) this.socket = null
      if (this.needed) this.scheduleReconnect()
    }
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer !== null || this.stopped) return
    this.reconnectTimer = this.timers.setTimeout(() => {
      this.reconnectTimer = null
      if (this.stopped) return
      const old = this.socket
      if (old && old.readyState <= OPEN) return // it came back by itself
      if (old) old.onclose = old.onerror = old.onmessage = old.onopen = null
      this.socket = null
      this.open()
    }, RECONNECT_DELAY_MS)
  }

  /** On every open: the context, the punter, then every active subscription. */
  private replay(): void {
    this.dynamicSent.clear()
    for (const id of this.dynamicCount.keys()) this.dynamicSent.add(id)
    if (this.options.events !== false) this.send({ type: 'SET_TREE_CTX', resetSubscribe: true, ...(this.dynamicSent.size ? { subscribe: [...this.dynamicSent] } : {}) })
    if (this.credentials) this.send({ type: 'AUTH', ...this.credentials })
    const byMode: Record<DisplayMode, string[]> = { FULL: [], SHORT: [] }
    for (const [id, mode] of this.sentMode) byMode[mode].push(id)
    for (const mode of ['FULL', 'SHORT'] as const) if (byMode[mode].length) this.send({ type: 'SUBSCRIBE', displayMode: mode, ids: byMode[mode] })
    if (this.gambling) this.send({ type: 'GI' })
    for (const [type, ids] of this.betChannels) this.send({ type, ids, resetSubscribe: true })
  }

  /** State messages: sent now if open; otherwise the replay on open carries them. */
  private sendIfOpen(message: { type: string; [field: string]: unknown }): void {
    if (this.connected) this.send(message)
  }

  /** Runs a task once the socket is open, checking every 350 ms (spec §9 connection poll). */
  whenConnected(task: () => void): () => void {
    let handle: unknown = null
    const check = () => {
      handle = null
      if (this.stopped) return
      if (this.connected) return task()
      handle = this.timers.setTimeout(check, CONNECTION_POLL_MS)
    }
    check()
    return () => {
      if (handle !== null) this.timers.clearTimeout(handle)
      handle = null
    }
  }

  private send(message: { type: string; [field: string]: unknown }): void {
    try {
      this.socket!.send(JSON.stringify(message))
    } catch (error) {
      this.options.report?.(`${message.type} message error`, error)
    }
  }

  private cancel(name: 'reconnectTimer' | 'debounceTimer'): void {
    if (this[name] !== null) this.timers.clearTimeout(this[name])
    this[name] = null
  }
}
