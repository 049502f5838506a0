/**
 * The bet slip's bet channel (spec §4 "Bet channel types: WATCH_ON_BET, INACTIVE_SELECTION"): the
 * punter socket watches exactly the slip's picks, and what comes back marks them.
 */
import { describe, expect, it } from 'vitest'
import { createBetslipStore } from '../../../engine/core/betslip'
import { watchSlip } from '../../../engine/realtime/bet-watch'
import { RealtimeManager, type SocketLike } from '../../../engine/realtime/manager'

class FakeSocket implements SocketLike {
  readyState = 0
  sent: any[] = []
  onopen: SocketLike['onopen'] = null
  onclose: SocketLike['onclose'] = null
  onerror: SocketLike['onerror'] = null
  onmessage: SocketLike['onmessage'] = null
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.readyState = 3
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) })
  }
}

function setUp() {
  const sockets: FakeSocket[] = []
  const manager = new RealtimeManager({ url: 'ws://site/sockets/v2/punter?channel=web', createSocket: () => sockets[sockets.push(new FakeSocket()) - 1], timers: { setTimeout: () => 0, clearTimeout: () => undefined } })
  manager.start()
  manager.authenticate({ punterHash: 'h', accessToken: 't' })
  sockets[0].open()
  sockets[0].sent = []
  const slip = createBetslipStore()
  return { socket: sockets[0], manager, slip, sockets }
}

const pick = (id: string) => ({ id, label: id, price: 2 })

describe('WATCH_ON_BET: the slip’s picks are watched on the punter socket', () => {
  it('nothing is sent for an empty slip; each change of the picks sends the whole set once (resetSubscribe); emptying the slip drops the watch', () => {
    const { socket, manager, slip } = setUp()
    const stop = watchSlip(slip, manager)
    expect(socket.sent).toEqual([])
    slip.getState().toggle(pick('e1-main-1'))
    slip.getState().toggle(pick('e2-main-2'))
    slip.getState().setStake(5) // not a change of picks: nothing sent
    expect(socket.sent).toEqual([
      { type: 'WATCH_ON_BET', ids: ['e1-main-1'], resetSubscribe: true },
      { type: 'WATCH_ON_BET', ids: ['e1-main-1', 'e2-main-2'], resetSubscribe: true },
    ])
    slip.getState().clear()
    expect(socket.sent.at(-1)).toEqual({ type: 'WATCH_ON_BET', resetSubscribe: true })
    stop()
  })

  it('a reconnect watches the picks again after the context and the AUTH', () => {
    const { manager, slip, sockets } = setUp()
    watchSlip(slip, manager)
    slip.getState().toggle(pick('e1-main-1'))
    sockets[0].onclose?.({})
    manager.stop()
    manager.start()
    sockets[1].open()
    expect(sockets[1].sent.map((m) => m.type)).toEqual(['SET_TREE_CTX', 'AUTH', 'WATCH_ON_BET'])
    expect(sockets[1].sent[2]).toEqual({ type: 'WATCH_ON_BET', ids: ['e1-main-1'], resetSubscribe: true })
  })

  it('INACTIVE_SELECTION marks a pick suspended or settled; WATCH_ON_BET with OPEN clears the mark; stopping unsubscribes', () => {
    const { socket, manager, slip } = setUp()
    const stop = watchSlip(slip, manager)
    slip.getState().toggle(pick('e1-main-1'))
    slip.getState().toggle(pick('e2-main-2'))
    socket.receive({ type: 'INACTIVE_SELECTION', selectionId: 'e1-main-1', eventId: 'e1', status: 'SUSPENDED' })
    expect(slip.getState().picks.map((p) => p.inactive)).toEqual(['SUSPENDED', undefined])
    socket.receive({ type: 'WATCH_ON_BET', selectionId: 'e1-main-1', eventId: 'e1', status: 'OPEN', price: 2.1, previous: 2 })
    expect(slip.getState().picks[0].inactive).toBeUndefined()
    socket.receive({ type: 'INACTIVE_SELECTION', selectionId: 'e2-main-2', eventId: 'e2', status: 'SETTLED', result: 'LOSE' })
    expect(slip.getState().picks[1].inactive).toBe('SETTLED')
    stop()
    expect(socket.sent.at(-1)).toEqual({ type: 'WATCH_ON_BET', resetSubscribe: true })
    socket.receive({ type: 'INACTIVE_SELECTION', selectionId: 'e1-main-1', eventId: 'e1', status: 'SUSPENDED' })
    expect(slip.getState().picks[0].inactive).toBeUndefined()
  })
})
