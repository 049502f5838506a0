/** The client real-time manager, rule by rule (spec §4 "Real-time channels", §7, §8, §9), with a
 * fake socket and a fake clock. */
import { beforeEach, describe, expect, it } from 'vitest'
import { CONNECTION_POLL_MS, DYNAMIC_DEBOUNCE_MS, RECONNECT_DELAY_MS, RealtimeManager, type SocketLike, type Timers } from '../../../engine/realtime/manager'

class FakeSocket implements SocketLike {
  readyState = 0
  sent: any[] = []
  failSends = false
  onopen: SocketLike['onopen'] = null
  onclose: SocketLike['onclose'] = null
  onerror: SocketLike['onerror'] = null
  onmessage: SocketLike['onmessage'] = null
  constructor(readonly url: string) {}
  send(data: string) {
    if (this.failSends) throw new Error('socket is gone')
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.readyState = 3
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
  fail() {
    this.readyState = 3
    this.onerror?.({})
    this.onclose?.({})
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) })
  }
}

class FakeClock implements Timers {
  now = 0
  private tasks: { at: number; task: () => void; id: number }[] = []
  private nextId = 1
  setTimeout(task: () => void, ms: number) {
    const id = this.nextId++
    this.tasks.push({ at: this.now + ms, task, id })
    return id
  }
  clearTimeout(handle: unknown) {
    this.tasks = this.tasks.filter((t) => t.id !== handle)
  }
  advance(ms: number) {
    const end = this.now + ms
    for (;;) {
      const due = this.tasks.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      this.tasks = this.tasks.filter((t) => t !== due)
      this.now = due.at
      due.task()
    }
    this.now = end
  }
}

let clock: FakeClock
let sockets: FakeSocket[]
let reports: string[]
let manager: RealtimeManager
const socket = () => sockets.at(-1)!
const sent = () => socket().sent

beforeEach(() => {
  clock = new FakeClock()
  sockets = []
  reports = []
  manager = new RealtimeManager({
    url: 'ws://site/sockets/events?channel=web',
    createSocket: (url) => {
      const s = new FakeSocket(url)
      sockets.push(s)
      return s
    },
    timers: clock,
    report: (message) => reports.push(message),
  })
})

function openManager() {
  manager.start()
  socket().open()
  socket().sent.length = 0
}

describe('connecting', () => {
  it('the socket opens at the given URL and sends a context message (SET_TREE_CTX) on open', () => {
    manager.start()
    expect(socket().url).toBe('ws://site/sockets/events?channel=web')
    socket().open()
    expect(sent()[0]).toEqual({ type: 'SET_TREE_CTX', resetSubscribe: true })
  })

  it('the separated punter socket (events: false) opens without a context message: it carries no events, and the server refuses one there (WRONG_SOCKET)', () => {
    const punter = new RealtimeManager({ url: 'ws://site/sockets/v2/punter?channel=web', events: false, createSocket: (url) => { const s = new FakeSocket(url); sockets.push(s); return s }, timers: clock })
    punter.start()
    punter.authenticate({ punterHash: 'h', accessToken: 't' })
    socket().open()
    expect(sent().map((m) => m.type)).toEqual(['AUTH'])
  })

  it('an error reconnects after 10 s, not before', () => {
    openManager()
    socket().fail()
    clock.advance(RECONNECT_DELAY_MS - 1)
    expect(sockets).toHaveLength(1)
    clock.advance(1)
    expect(sockets).toHaveLength(2)
  })

  it('a close reconnects while the manager is needed; after stop() nothing reconnects', () => {
    openManager()
    socket().readyState = 3
    socket().onclose?.({})
    clock.advance(RECONNECT_DELAY_MS)
    expect(sockets).toHaveLength(2)
    manager.stop()
    clock.advance(RECONNECT_DELAY_MS * 3)
    expect(sockets).toHaveLength(2)
  })

  it('on reconnect every active subscription is sent again, after the context message', () => {
    openManager()
    manager.subscribeEvents(['e1'], 'FULL')
    manager.subscribeEvents(['e2'], 'SHORT')
    manager.addDynamic(['e3'])
    clock.advance(DYNAMIC_DEBOUNCE_MS)
    manager.subscribeGambling()
    manager.subscribeBetChannel('WATCH_ON_BET', ['e1-main-1'])
    manager.authenticate({ punterHash: 'h', accessToken: 't' })
    socket().fail()
    clock.advance(RECONNECT_DELAY_MS)
    socket().open()
    expect(sent()).toEqual([
      { type: 'SET_TREE_CTX', resetSubscribe: true, subscribe: ['e3'] },
      { type: 'AUTH', punterHash: 'h', accessToken: 't' },
      { type: 'SUBSCRIBE', displayMode: 'FULL', ids: ['e1'] },
      { type: 'SUBSCRIBE', displayMode: 'SHORT', ids: ['e2'] },
      { type: 'GI' },
      { type: 'WATCH_ON_BET', ids: ['e1-main-1'], resetSubscribe: true },
    ])
  })

  it(`whenConnected runs once the socket is open, found by a poll every ${CONNECTION_POLL_MS} ms`, () => {
    manager.start()
    let ran = 0
    manager.whenConnected(() => ran++)
    clock.advance(CONNECTION_POLL_MS * 2)
    expect(ran).toBe(0)
    socket().readyState = 1
    clock.advance(CONNECTION_POLL_MS - 1)
    expect(ran).toBe(0)
    clock.advance(1)
    expect(ran).toBe(1)
  })
})

describe('subscriptions', () => {
  it('subscribing sends once: a second holder of the same id sends nothing', () => {
    openManager()
    manager.subscribeEvents(['e1'], 'SHORT')
    manager.subscribeEvents(['e1'], 'SHORT')
    manager.subscribeGambling()
    manager.subscribeGambling()
    expect(sent()).toEqual([{ type: 'SUBSCRIBE', displayMode: 'SHORT', ids: ['e1'] }, { type: 'GI' }])
  })

  it('unsubscribing sends a reset (GI and bet channel) or UNSUBSCRIBE once the last holder lets go', () => {
    openManager()
    const a = manager.subscribeEvents(['e1'], 'SHORT')
    const b = manager.subscribeEvents(['e1'], 'SHORT')
    manager.subscribeGambling()
    manager.subscribeBetChannel('INACTIVE_SELECTION', ['s1'])
    sent().length = 0
    a()
    expect(sent()).toEqual([])
    b()
    manager.unsubscribeGambling()
    manager.unsubscribeBetChannel('INACTIVE_SELECTION')
    expect(sent()).toEqual([{ type: 'UNSUBSCRIBE', ids: ['e1'] }, { type: 'GI', resetSubscribe: true }, { type: 'INACTIVE_SELECTION', resetSubscribe: true }])
  })

  it('FULL replaces SHORT for the same ids, and dropping FULL re-subscribes SHORT', () => {
    openManager()
    manager.subscribeEvents(['e1', 'e2'], 'SHORT')
    const full = manager.subscribeEvents(['e1'], 'FULL')
    full()
    expect(sent()).toEqual([
      { type: 'SUBSCRIBE', displayMode: 'SHORT', ids: ['e1', 'e2'] },
      { type: 'SUBSCRIBE', displayMode: 'FULL', ids: ['e1'] },
      { type: 'SUBSCRIBE', displayMode: 'SHORT', ids: ['e1'] },
    ])
  })

  it('a SHORT holder added under FULL changes nothing; dropping FULL without SHORT holders unsubscribes', () => {
    openManager()
    const full = manager.subscribeEvents(['e1'], 'FULL')
    manager.subscribeEvents(['e1'], 'SHORT')()
    full()
    expect(sent()).toEqual([{ type: 'SUBSCRIBE', displayMode: 'FULL', ids: ['e1'] }, { type: 'UNSUBSCRIBE', ids: ['e1'] }])
  })

  it(`dynamic subscriptions are counted per id and sent as one diff after ${DYNAMIC_DEBOUNCE_MS} ms`, () => {
    openManager()
    const listA = manager.addDynamic(['e1', 'e2'])
    manager.addDynamic(['e2', 'e3'])
    clock.advance(DYNAMIC_DEBOUNCE_MS - 1)
    expect(sent()).toEqual([])
    clock.advance(1)
    expect(sent()).toEqual([{ type: 'SET_TREE_CTX', subscribe: ['e1', 'e2', 'e3'] }])
    listA() // e2 is still held by the second list
    manager.addDynamic(['e4'])
    clock.advance(DYNAMIC_DEBOUNCE_MS)
    expect(sent()[1]).toEqual({ type: 'SET_TREE_CTX', subscribe: ['e4'], unSubscribe: ['e1'] })
  })

  it('a dynamic id added and dropped within the debounce window sends nothing', () => {
    openManager()
    manager.addDynamic(['e9'])()
    clock.advance(DYNAMIC_DEBOUNCE_MS)
    expect(sent()).toEqual([])
  })
})

describe('incoming and errors', () => {
  it('event messages route by treeId, other messages by type', () => {
    openManager()
    const tree: unknown[] = []
    const account: unknown[] = []
    manager.onTree(42, (m) => tree.push(m))
    manager.onType('accountUpdate', (m) => account.push(m))
    socket().receive({ type: 'EVENT_UPDATE', treeId: 42, version: 2 })
    socket().receive({ type: 'EVENT_UPDATE', treeId: 43, version: 2 })
    socket().receive({ type: 'accountUpdate', payload: { balance: 1 } })
    socket().onmessage?.({ data: 'not json' })
    expect(tree).toEqual([{ type: 'EVENT_UPDATE', treeId: 42, version: 2 }])
    expect(account).toEqual([{ type: 'accountUpdate', payload: { balance: 1 } }])
  })

  it('a send that fails is reported as "{type} message error"', () => {
    openManager()
    socket().failSends = true
    manager.subscribeEvents(['e1'], 'FULL')
    manager.subscribeGambling()
    expect(reports).toEqual(['SUBSCRIBE message error', 'GI message error'])
  })
})
