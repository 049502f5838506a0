/**
 * A test's socket client of a real server (issue 14's socket tests): every frame is kept in order,
 * `next(match)` answers the first kept frame that matches or waits for one, and `roundTrip()`
 * resolves once the server's pong is back (every frame sent before it has been handled).
 */
import WebSocket from 'ws'

export interface SocketClient {
  socket: WebSocket
  frames: any[] // eslint-disable-line @typescript-eslint/no-explicit-any
  send(message: unknown): void
  next(match: (frame: any) => boolean): Promise<any> // eslint-disable-line @typescript-eslint/no-explicit-any
  roundTrip(): Promise<void>
  closed: Promise<number>
}

/** Opens `ws://127.0.0.1:<port><path>` with the site's Host header and waits for the open. */
export async function openSocketClient(port: number, path: string, host = 'localhost'): Promise<SocketClient> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: { host: `${host}:${port}` } })
  const frames: any[] = [] // eslint-disable-line @typescript-eslint/no-explicit-any
  const waiting: { match: (frame: any) => boolean; done: (frame: any) => void }[] = [] // eslint-disable-line @typescript-eslint/no-explicit-any
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString())
    frames.push(frame)
    for (const w of [...waiting])
      if (w.match(frame)) {
        waiting.splice(waiting.indexOf(w), 1)
        w.done(frame)
      }
  })
  const closed = new Promise<number>((done) => socket.on('close', (code) => done(code)))
  await new Promise<void>((done, fail) => {
    socket.once('open', () => done())
    socket.once('error', fail)
  })
  return {
    socket,
    frames,
    closed,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: (match) => {
      const found = frames.find(match)
      return found ? Promise.resolve(found) : new Promise((done) => waiting.push({ match, done }))
    },
    roundTrip: () =>
      new Promise((done) => {
        socket.once('pong', () => done())
        socket.ping()
      }),
  }
}
