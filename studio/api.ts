/**
 * The studio's calls to the admin API: same-origin, the admin session cookie, and the session's
 * CSRF token on every state-changing request (as today's /admin page does). Answers use the
 * gateway envelope: `{status: 'OK', payload}` or `{status: 'ERROR', errorCode, payload}`.
 */
export interface Answer<T> {
  ok: boolean
  status: number
  payload: T
  errorCode?: string
}

let csrf = ''

export function setCsrf(token: string): void {
  csrf = token
}

export async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await response.json().catch(() => ({}))) as { payload?: T; errorCode?: string }
  if (response.status === 401) location.assign('/admin')
  return { ok: response.ok, status: response.status, payload: json.payload as T, errorCode: json.errorCode }
}

export function errorText(answer: Answer<unknown>): string {
  const code = answer.errorCode ?? `HTTP ${answer.status}`
  const payload = answer.payload as unknown
  if (Array.isArray(payload)) return `${code}: ${payload.map((f: { pointer?: string; message?: string }) => `${f.pointer || '/'}: ${f.message}`).join('; ')}`
  return payload ? `${code}: ${JSON.stringify(payload)}` : code
}

export interface Me {
  email: string
  name: string
  role: 'operator' | 'compliance'
}

export interface DocumentRow {
  file: string
  label: string
  id: number
  match?: string | null
}

export interface LintFinding {
  severity: 'error' | 'warning' | 'note'
  file: string
  pointer: string
  message: string
  rule?: string
}

export interface SiteRow {
  id: string
  name: string
  jurisdiction: string
  isDefault: boolean
  defaultLocale: string
  locales: string[]
}

/** Waits `ms` after the last call before running: lint and preview follow typing, not keystrokes. */
export function debounce<A extends unknown[]>(run: (...args: A) => void, ms: number): ((...args: A) => void) & { cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  const wrapped = (...args: A) => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => run(...args), ms)
  }
  wrapped.cancel = () => timer && clearTimeout(timer)
  return wrapped
}
