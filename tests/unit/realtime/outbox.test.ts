/**
 * The socket outbox (server/realtime/outbox.ts): frames of one turn go out together, corked into one
 * write per socket, in the order they were queued; a socket being closed is flushed first.
 */
import { describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import { createOutbox } from '../../../server/realtime/outbox'

function fakeSocket() {
  const log: string[] = []
  let corked = 0
  const socket = {
    OPEN: 1,
    readyState: 1,
    send: (frame: string | Buffer) => log.push(`${corked ? 'corked ' : ''}${frame.toString()}`),
    _socket: { cork: () => corked++, uncork: () => corked-- },
  }
  return { socket: socket as unknown as WebSocket & { readyState: number }, log }
}

const endOfTurn = () => new Promise<void>((done) => queueMicrotask(done))

describe('socket outbox', () => {
  it('frames queued in one turn are written at its end, corked together, in order', async () => {
    const outbox = createOutbox()
    const { socket, log } = fakeSocket()
    outbox.queue(socket, 'a')
    outbox.queue(socket, Buffer.from('b'))
    outbox.queue(socket, 'c')
    expect(log).toEqual([])
    await endOfTurn()
    expect(log).toEqual(['corked a', 'corked b', 'corked c'])
  })

  it('a single frame is written as it is, and each socket gets only its own frames', async () => {
    const outbox = createOutbox()
    const one = fakeSocket()
    const two = fakeSocket()
    outbox.queue(one.socket, 'x')
    outbox.queue(two.socket, 'y')
    outbox.queue(two.socket, 'z')
    await endOfTurn()
    expect(one.log).toEqual(['x'])
    expect(two.log).toEqual(['corked y', 'corked z'])
  })

  it('flush writes a socket’s frames now (before a close) and they are not written twice', async () => {
    const outbox = createOutbox()
    const { socket, log } = fakeSocket()
    outbox.queue(socket, 'accountLogout')
    outbox.flush(socket)
    expect(log).toEqual(['accountLogout'])
    await endOfTurn()
    expect(log).toEqual(['accountLogout'])
  })

  it('nothing is written to a socket that is no longer open', async () => {
    const outbox = createOutbox()
    const { socket, log } = fakeSocket()
    outbox.queue(socket, 'late')
    socket.readyState = 3
    await endOfTurn()
    expect(log).toEqual([])
  })
})
