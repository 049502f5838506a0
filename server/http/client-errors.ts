/**
 * Requests Node's HTTP parser refuses before Express sees them (a URL or headers past the 16 KB
 * limit, a malformed request line) still get an answer in the API envelope rather than Node's
 * bare status line, so a client always reads `{status:"ERROR", errorCode}`.
 */
import { STATUS_CODES, type Server } from 'node:http'
import type { Socket } from 'node:net'

const CODES: Record<number, string> = { 400: 'BAD_REQUEST', 408: 'REQUEST_TIMEOUT', 413: 'PAYLOAD_TOO_LARGE', 431: 'REQUEST_HEADER_FIELDS_TOO_LARGE' }

function statusOf(error: { code?: string }): number {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408
  return 400
}

/** Answers parser-level refusals in the envelope and closes the connection. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const status = statusOf(error)
    const body = JSON.stringify({ status: 'ERROR', errorCode: CODES[status] })
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    )
  })
}
