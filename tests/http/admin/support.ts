/**
 * Admin test support: a real server, and an admin client that signs in and carries the session
 * cookie and CSRF token like the admin page does.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { rawRequest, startTestServer, type RawResponse, type TestServer } from '../../support/server'
import { DEMO_ADMINS } from '../../../server/admin/accounts'
import { totpCode } from '../../support/totp'
import { overlayDocumentOf } from '../../../kernel/documents/overlay-diff'
import { overlayBaseOf, resolveOverlay } from '../../../kernel/documents/overlay-set'

export { startTestServer, type TestServer }

export const OPERATOR = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
export const COMPLIANCE = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!
export const COMPLIANCE2 = DEMO_ADMINS.find((a) => a.email === 'compliance2@parlay.test')!

export interface AdminClient {
  cookie: string
  csrf: string
  get(path: string): Promise<RawResponse>
  post(path: string, body?: unknown): Promise<RawResponse>
  put(path: string, body: unknown): Promise<RawResponse>
  patch(path: string, body: unknown): Promise<RawResponse>
}

/** POST a JSON body to the admin API without a session. */
export const postJson = (server: Pick<TestServer, 'port'>, path: string, body: unknown, headers: Record<string, string> = {}) =>
  rawRequest(server.port, { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

/**
 * Signs in as the admin page does: password, then the TOTP code of the admin's secret at the
 * server's clock (computed here with otpauth from the secret, as an authenticator app would).
 */
export async function signIn(server: TestServer, who: { email: string; password: string; totpSecret: string }): Promise<AdminClient> {
  const first = await postJson(server, '/admin/api/login', { email: who.email, password: who.password })
  if (first.status !== 200 || first.json().payload.step !== 'totp') throw new Error(`login failed: ${first.status} ${first.body}`)
  const res = await postJson(server, '/admin/api/login/second-factor', { challenge: first.json().payload.challenge, code: totpCode(who.totpSecret, server.deps.now()) })
  if (res.status !== 200) throw new Error(`second factor failed: ${res.status} ${res.body}`)
  return clientOf(server, res)
}

/** The admin client of a sign-in's last answer: its session cookie and CSRF token on every call. */
export function clientOf(server: Pick<TestServer, 'port'>, signedIn: RawResponse): AdminClient {
  const cookie = String(([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])[0]).split(';')[0]
  const csrf = signedIn.json().payload.csrf as string
  const send = (method: string, path: string, body?: unknown) =>
    rawRequest(server.port, {
      method,
      path,
      headers: { cookie, 'x-csrf-token': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return { cookie, csrf, get: (path) => send('GET', path), post: (path, body) => send('POST', path, body), put: (path, body) => send('PUT', path, body), patch: (path, body) => send('PATCH', path, body) }
}

/** The admin tests' common set-up: a test server with the operator and a compliance officer signed in. */
export async function startWithReviewers(options?: Parameters<typeof startTestServer>[0]): Promise<{ server: TestServer; operator: AdminClient; compliance: AdminClient }> {
  const server = await startTestServer(options)
  return { server, operator: await signIn(server, OPERATOR), compliance: await signIn(server, COMPLIANCE) }
}

export const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'

/** A document as its site is served it: an overlay (docs/overlays.md) resolved over its shared document. */
export function readDocumentFile(server: TestServer, file: string): Record<string, any> {
  const text = readFileSync(join(server.documentsDir, file), 'utf8')
  const base = overlayBaseOf(text)
  if (!base) return JSON.parse(text)
  const resolved = resolveOverlay(file, JSON.parse(text), base, JSON.parse(readFileSync(join(server.documentsDir, base), 'utf8')))
  if (!resolved.ok) throw new Error(`${file} does not resolve: ${JSON.stringify(resolved.problems)}`)
  return resolved.document
}

/** The text an operator saves for an edited document: for an overlay, its patch (as the studio saves it). */
export function editedText(server: TestServer, file: string, edit: (doc: Record<string, any>) => void): string {
  const doc = readDocumentFile(server, file)
  edit(doc)
  const base = overlayBaseOf(readFileSync(join(server.documentsDir, file), 'utf8'))
  if (!base) return JSON.stringify(doc, null, 2)
  const overlay = overlayDocumentOf(file, base, JSON.parse(readFileSync(join(server.documentsDir, base), 'utf8')), doc)
  if (!overlay.ok) throw new Error(`${file}: ${overlay.reason}`)
  return JSON.stringify(overlay.document, null, 2)
}

/** Operator drafts a change and submits it; returns the version id. */
export async function draftAndSubmit(operator: AdminClient, file: string, edit: (doc: Record<string, any>) => void, server: TestServer): Promise<number> {
  const draft = await operator.post('/admin/api/drafts', { file, content: editedText(server, file, edit) })
  if (draft.status !== 201) throw new Error(`draft failed: ${draft.status} ${draft.body}`)
  const id = draft.json().payload.id as number
  const submitted = await operator.post(`/admin/api/versions/${id}/submit`)
  if (submitted.status !== 200) throw new Error(`submit failed: ${submitted.status} ${submitted.body}`)
  return id
}
