// Staff sign-in in two steps (password, then a code from the authenticator app or a recovery
// code; on the first sign-in, setting the authenticator up and saving ten recovery codes) and the
// account page (password change, new recovery codes). Plain DOM under the site's CSP (no
// innerHTML: every text is a text node). Once signed in, /admin sends staff to their app: the
// studio for operators and compliance, the services views for support.

// `h` builds DOM; `api` calls the admin API with the session's CSRF token.
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value)
    else if (key === 'className') el.className = value
    else el.setAttribute(key, value === true ? '' : String(value))
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue
    el.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return el
}

let csrf = ''

function setCsrf(token) {
  csrf = token
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await res.json().catch(() => ({}))
  // the session ended (signed out elsewhere, password changed, account disabled): back to sign-in
  if (res.status === 401 && json.errorCode === 'UNAUTHORIZED') location.reload()
  return { status: res.status, ok: res.ok, json }
}


const FAILURES = {
  INVALID_CREDENTIALS: 'Wrong email or password.',
  INVALID_CODE: 'Wrong code, or a code already used: wait for the next one.',
  SIGN_IN_EXPIRED: 'This sign-in expired or had too many wrong codes. Start again.',
  TOO_MANY_REQUESTS: 'Too many attempts; wait a few minutes.',
  SERVICE_UNAVAILABLE: 'Sign-in is unavailable right now; try again shortly.',
  ALREADY_ENROLLED: 'Two-factor sign-in was set up meanwhile. Start again.',
}
const failure = (result) => FAILURES[result.json.errorCode] ?? `Sign-in failed (${result.json.errorCode ?? result.status}).`

const box = () => document.getElementById('login')
const errorLine = () => h('p', { className: 'error', id: 'login-error', role: 'alert' })

/** One step of the sign-in: its heading, its fields, and what to do with the answer. */
function step(title, intro, fields, submit, send) {
  const error = errorLine()
  const form = h('form', { autocomplete: 'off' }, ...fields, h('button', { type: 'submit', 'data-testid': 'admin-code-submit' }, submit), error)
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const result = await send(new FormData(form))
    if (result && !result.ok) {
      error.textContent = failure(result)
      if (result.json.errorCode === 'SIGN_IN_EXPIRED') setTimeout(() => location.reload(), 1500)
    }
  })
  box().replaceChildren(h('h1', {}, title), ...intro, form)
  form.querySelector('input')?.focus()
}

const codeField = () =>
  h('label', {}, 'Code from your authenticator app ', h('input', { name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: '6', required: true, 'data-testid': 'admin-code' }))

function signedIn(payload, lines = []) {
  setCsrf(payload.csrf)
  if (lines.length === 0) return location.reload()
  const go = h('button', { type: 'button', 'data-testid': 'admin-continue' }, 'Continue')
  go.addEventListener('click', () => location.reload())
  box().replaceChildren(h('h1', {}, 'Signed in'), ...lines, go)
}

function codeStep(challenge) {
  step('Two-factor sign-in', [h('p', {}, 'Type the 6-digit code your authenticator app shows for Parlay admin.')], [codeField()], 'Verify', async (data) => {
    const result = await api('POST', '/admin/api/login/second-factor', { challenge, code: String(data.get('code')).trim() })
    if (result.ok) signedIn(result.json.payload)
    return result
  })
  const other = h('button', { type: 'button', className: 'link', 'data-testid': 'admin-use-recovery' }, 'Use a recovery code instead')
  other.addEventListener('click', () => recoveryStep(challenge))
  box().append(other)
}

function recoveryStep(challenge) {
  const field = h('label', {}, 'Recovery code ', h('input', { name: 'recoveryCode', autocomplete: 'off', autocapitalize: 'characters', required: true, 'data-testid': 'admin-recovery-code' }))
  step('Sign in with a recovery code', [h('p', {}, 'Each recovery code works once.')], [field], 'Verify', async (data) => {
    const result = await api('POST', '/admin/api/login/second-factor', { challenge, recoveryCode: String(data.get('recoveryCode')).trim() })
    if (result.ok) {
      const left = result.json.payload.recoveryCodesLeft
      signedIn(result.json.payload, [h('p', { 'data-testid': 'admin-recovery-left' }, `Signed in with a recovery code: ${left} left. Make new ones under Account once your authenticator works again.`)])
    }
    return result
  })
}

function recoveryCodesList(codes) {
  return [
    h('p', {}, 'Your recovery codes. Each signs you in once when you do not have your authenticator. They are shown only now: keep them somewhere safe.'),
    h('ol', { className: 'recovery-codes', 'data-testid': 'admin-recovery-codes' }, ...codes.map((code) => h('li', {}, h('code', {}, code)))),
  ]
}

function enrolStep(challenge, enrolment) {
  const intro = [
    h('p', {}, 'Two-factor sign-in is required for every admin. Add Parlay admin to an authenticator app (any TOTP app): scan the code with your phone, open the link on this device, or type the key.'),
    h('img', { className: 'totp-qr', src: enrolment.qr, alt: 'QR code of the authenticator key', 'data-testid': 'admin-totp-qr' }),
    h('p', {}, h('a', { href: enrolment.uri, 'data-testid': 'admin-totp-uri' }, 'Add to an authenticator app')),
    h('p', {}, 'Key: ', h('code', { className: 'secret', 'data-testid': 'admin-totp-secret' }, enrolment.secret)),
    h('p', {}, 'Then type the code it shows.'),
  ]
  step('Set up two-factor sign-in', intro, [codeField()], 'Confirm', async (data) => {
    const result = await api('POST', '/admin/api/login/enrol', { challenge, code: String(data.get('code')).trim() })
    if (result.ok) signedIn(result.json.payload, recoveryCodesList(result.json.payload.recoveryCodes))
    return result
  })
}

function mountLogin() {
  const form = document.getElementById('login-form')
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const result = await api('POST', '/admin/api/login', { email: String(data.get('email')), password: String(data.get('password')) })
    if (!result.ok) return void (document.getElementById('login-error').textContent = failure(result))
    const { step: next, challenge, enrolment } = result.json.payload
    if (next === 'enrol') enrolStep(challenge, enrolment)
    else codeStep(challenge)
  })
}

// ---- the account page -------------------------------------------------------------------------

const PASSWORD_PROBLEMS = {
  'too-short': 'The new password needs at least 15 characters.',
  'too-long': 'The new password may have at most 128 characters.',
  published: 'That password is published (a demo password): choose another.',
  unchanged: 'The new password is the current one.',
}

function passwordForm() {
  const result = h('p', { role: 'status', 'data-testid': 'account-result' })
  const form = h(
    'form',
    { className: 'account-form' },
    h('h2', {}, 'Change password'),
    h('label', {}, 'Current password ', h('input', { name: 'current', type: 'password', autocomplete: 'current-password', required: true, 'data-testid': 'account-current-password' })),
    h('label', {}, 'New password (at least 15 characters) ', h('input', { name: 'next', type: 'password', autocomplete: 'new-password', required: true, 'data-testid': 'account-new-password' })),
    h('button', { type: 'submit', 'data-testid': 'account-change-password' }, 'Change password'),
    result,
  )
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const answer = await api('POST', '/admin/api/account/password', { currentPassword: String(data.get('current')), newPassword: String(data.get('next')) })
    if (answer.ok) form.reset()
    result.className = answer.ok ? 'ok' : 'error'
    result.textContent = answer.ok
      ? `Password changed. ${answer.json.payload.otherSessionsEnded} other session(s) signed out.`
      : (PASSWORD_PROBLEMS[answer.json.payload?.problem] ?? FAILURES[answer.json.errorCode] ?? `Not changed (${answer.json.errorCode}).`)
  })
  return form
}

function recoveryForm() {
  const out = h('div', { 'data-testid': 'account-recovery' })
  const form = h(
    'form',
    { className: 'account-form' },
    h('h2', {}, 'New recovery codes'),
    h('label', {}, 'Password ', h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
    h('button', { type: 'submit' }, 'Make ten new codes (the old ones stop working)'),
    out,
  )
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const answer = await api('POST', '/admin/api/account/recovery-codes', { password: String(new FormData(form).get('password')) })
    out.replaceChildren(...(answer.ok ? recoveryCodesList(answer.json.payload.recoveryCodes) : [h('p', { className: 'error' }, FAILURES[answer.json.errorCode] ?? answer.json.errorCode)]))
    if (answer.ok) form.reset()
  })
  return form
}

async function mountAccount() {
  const session = await api('GET', '/admin/api/session')
  if (!session.ok) return
  setCsrf(session.json.payload.csrf)
  document.getElementById('logout').addEventListener('click', async () => {
    await api('POST', '/admin/api/logout')
    location.assign('/admin')
  })
  const account = (await api('GET', '/admin/api/account')).json.payload
  const { twoFactor, user } = account
  document.getElementById('account').replaceChildren(
    h('h1', {}, 'Your account'),
    h('p', {}, `${user.name} <${user.email}>, ${user.role}.`),
    h('p', { 'data-testid': 'account-two-factor' }, `Two-factor sign-in set up ${new Date(twoFactor.enrolledAt).toISOString().slice(0, 10)}; ${twoFactor.recoveryCodesLeft} recovery code(s) left.`),
    passwordForm(),
    recoveryForm(),
  )
}

if (document.getElementById('login-form')) mountLogin()
else if (document.getElementById('account')) mountAccount()
