/**
 * Frames for a socket wait until the end of the current turn of the event loop and then go out
 * together in one write (one system call per socket per turn, not one per frame). A feed tick moves
 * many events at once and a list page follows them all, so without this 2,000 sockets × n updates
 * cost 2,000 × n writes; profiling the socket bench showed the server's time going to `writev`
 * itself. Order is kept: every frame of a connection goes through its outbox, and a socket about
 * to be closed is flushed first (a goodbye such as `accountLogout` must precede the close frame).
 */
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'

export type Frame = string | Buffer

export interface Outbox {
  /** Queues a frame; it is written at the end of this turn (microtask). */
  queue(socket: WebSocket, frame: Frame): void
  /** Writes this socket's queued frames now (before closing it). */
  flush(socket: WebSocket): void
}

/** The socket under a `ws` connection, to cork it while several frames are written (no public API). */
const rawOf = (socket: WebSocket) => (socket as unknown as { _socket?: Duplex })._socket

function write(socket: WebSocket, frames: Frame[]): void {
  if (socket.readyState !== socket.OPEN) return
  if (frames.length === 1) return socket.send(frames[0], { binary: false })
  const raw = rawOf(socket)
  raw?.cork()
  for (const frame of frames) socket.send(frame, { binary: false })
  raw?.uncork()
}

export function createOutbox(): Outbox {
  const pending = new Map<WebSocket, Frame[]>()
  let scheduled = false
  const flushAll = () => {
    scheduled = false
    const due = [...pending]
    pending.clear()
    for (const [socket, frames] of due)
      try {
        write(socket, frames)
      } catch {
        // a socket failing mid-write is closed by ws; the others still get their frames
      }
  }
  return {
    queue(socket, frame) {
      if (socket.readyState !== socket.OPEN) return
      const frames = pending.get(socket)
      if (frames) frames.push(frame)
      else pending.set(socket, [frame])
      if (!scheduled) {
        scheduled = true
        queueMicrotask(flushAll)
      }
    },
    flush(socket) {
      const frames = pending.get(socket)
      if (!frames) return
      pending.delete(socket)
      write(socket, frames)
    },
  }
}
