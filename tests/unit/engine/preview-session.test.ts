/** A studio preview page (engine/renderers/shell/preview-session.ts): storage in memory, and a preview as a demo punter restored from its read-only session. */
import { describe, expect, it } from 'vitest'
import { readStoredSession } from '../../../engine/core/stores'
import { memoryStorage, seedPreviewSession } from '../../../engine/renderers/shell/preview-session'

const answer = (body: unknown) => (async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch

describe('a studio preview page', () => {
  it("stores the demo punter's preview session so the page restores it like any session", async () => {
    const storage = memoryStorage()
    const session = { accessToken: 'a'.repeat(32), refreshToken: null, sessionHash: 'preview-xyz', creationTime: 1000, loginTimeout: 600_000, rememberMe: false }
    expect(await seedPreviewSession(storage, 'token-0123456789abcdef', answer({ status: 'OK', payload: { session } }))).toBe(true)
    expect(readStoredSession(storage)).toMatchObject({ accessToken: session.accessToken, sessionHash: 'preview-xyz', creationTime: 1000, loginTimeout: 600_000 })
  })

  it('stays a guest for a guest preview, a refused token or a network failure', async () => {
    for (const fetcher of [answer({ status: 'OK', payload: { session: null } }), answer({ status: 'ERROR', errorCode: 'PREVIEW_REFUSED' }), (async () => Promise.reject(new Error('offline'))) as unknown as typeof fetch]) {
      const storage = memoryStorage()
      expect(await seedPreviewSession(storage, 'token-0123456789abcdef', fetcher)).toBe(false)
      expect(readStoredSession(storage)).toBeNull()
    }
  })

  it('keeps its storage in the page: two previews share nothing', () => {
    const [a, b] = [memoryStorage(), memoryStorage()]
    a.setItem('session', '{}')
    expect([a.getItem('session'), b.getItem('session'), a.length, b.length]).toEqual(['{}', null, 1, 0])
  })
})
