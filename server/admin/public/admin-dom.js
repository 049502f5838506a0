// The admin pages' two helpers: `h` builds DOM (no innerHTML: every text is a text node) and `api`
// calls the admin API with the session's CSRF token. Shared by admin.js and admin-account.js.

export function h(tag, attrs = {}, ...children) {
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

export function setCsrf(token) {
  csrf = token
}

export async function api(method, path, body) {
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
