/**
 * A GET of this server's own API on loopback, for the page's Host (the site), as a guest: no cookie
 * or credential is passed on. The first screen asks its data this way, exactly as the browser
 * would ask it (./first-screen-render.ts). Node's fetch cannot set Host, hence node:http.
 */
import { request as httpRequest } from 'node:http'
import { candidateHeaders } from '../documents/candidate'

/** How long the page waits for a screen data answer from this server before it sends the boot shell. */
export const DATA_TIMEOUT_MS = 1_000

export function askSelf(port: number, path: string, host: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    // inside the publish gate's request, its candidate set answers the data too (documents/candidate.ts)
    const headers = { accept: 'application/json', ...(host ? { host } : {}), ...candidateHeaders() }
    const ask = httpRequest({ host: '127.0.0.1', port, path, headers, timeout: DATA_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', fail)
    })
    ask.on('timeout', () => ask.destroy(new Error(`${path}: no answer in ${DATA_TIMEOUT_MS} ms`)))
    ask.on('error', fail)
    ask.end()
  })
}
