// Parlay admin page: plain DOM, no framework, no innerHTML (every text goes through textContent),
// served same-origin so the CSP (script-src 'self', style-src 'self') holds.

const IMPACT_LABELS = {
  'age-gate': 'age gate',
  'consent-legal': 'consent and legal',
  'self-exclusion-limits': 'self-exclusion and limits',
  'responsible-gambling': 'responsible gambling and reality check',
  'identity-kyc': 'identity and KYC',
  'money-bonus': 'money and bonus',
  copy: 'copy',
  cosmetic: 'cosmetic',
}

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
let me = null

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await res.json().catch(() => ({}))
  if (res.status === 401 && path !== '/admin/api/login') location.reload()
  return { status: res.status, ok: res.ok, json }
}

const when = (ms) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) : '')

function notice(text, kind = 'info') {
  const box = document.getElementById('notice') ?? document.body.appendChild(h('div', { id: 'notice', role: 'status' }))
  box.className = `notice ${kind}`
  box.textContent = text
}

function errorText(result) {
  const code = result.json.errorCode ?? `HTTP ${result.status}`
  const payload = result.json.payload
  if (Array.isArray(payload)) return `${code}: ${payload.map((f) => `${f.file}:${f.pointer || '/'}: ${f.message}`).join('\n')}`
  return payload ? `${code}: ${JSON.stringify(payload)}` : code
}

// ---- login ------------------------------------------------------------------------------------

function mountLogin() {
  const form = document.getElementById('login-form')
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const result = await api('POST', '/admin/api/login', { email: String(data.get('email')), password: String(data.get('password')) })
    if (result.ok) location.reload()
    else document.getElementById('login-error').textContent = result.status === 429 ? 'Too many attempts; wait a few minutes.' : 'Wrong email or password.'
  })
}

// ---- views ------------------------------------------------------------------------------------

const app = () => document.getElementById('app')
// Views load asynchronously: a view whose hash is no longer current must not paint over the new one.
function show(at, ...nodes) {
  if (at === location.hash) app().replaceChildren(...nodes)
}

async function documentsView() {
  const at = location.hash
  const result = await api('GET', '/admin/api/documents')
  const rows = result.json.payload ?? []
  const filter = h('input', { type: 'search', placeholder: 'Filter documents', 'data-testid': 'document-filter' })
  const list = h('ul', { className: 'documents' })
  const render = () => {
    const q = filter.value.toLowerCase()
    list.replaceChildren(
      ...rows
        .filter((r) => !q || r.file.includes(q) || r.label.toLowerCase().includes(q))
        .map((r) =>
          h('li', {}, h('a', { href: `#document/${encodeURIComponent(r.file)}`, 'data-file': r.file }, r.label), ' ', h('code', {}, r.file), ' ', h('span', { className: 'muted' }, `v${r.id} ${r.origin} ${when(r.publishedAt)}`)),
        ),
    )
  }
  filter.addEventListener('input', render)
  render()
  show(at, h('h1', {}, 'Published documents'), filter, list)
}

async function documentView(file) {
  const at = location.hash
  const result = await api('GET', `/admin/api/document?file=${encodeURIComponent(file)}`)
  if (!result.ok) return show(at, h('p', {}, errorText(result)))
  const { published, history } = result.json.payload
  const editor = h('textarea', { className: 'editor', spellcheck: 'false', 'data-testid': 'draft-editor' })
  editor.value = published.content
  const save = h('button', { type: 'button', 'data-testid': 'save-draft', disabled: me.role !== 'operator' }, 'Save as draft')
  save.addEventListener('click', async () => {
    const created = await api('POST', '/admin/api/drafts', { file, content: editor.value })
    if (!created.ok) return notice(errorText(created), 'error')
    location.hash = `#version/${created.json.payload.id}`
  })
  const historyList = h(
    'table',
    { className: 'history' },
    h('tr', {}, h('th', {}, 'version'), h('th', {}, 'state'), h('th', {}, 'origin'), h('th', {}, 'author'), h('th', {}, 'reviewed by'), h('th', {}, 'published'), h('th', {}, '')),
    ...history.map((v) => {
      const rollback =
        v.publishedAt && v.id !== published.id
          ? h('button', {
              type: 'button',
              onclick: async () => {
                if (!confirm(`Put version ${v.id} of ${file} live again?`)) return
                const r = await api('POST', '/admin/api/rollback', { file, version: v.id })
                if (!r.ok) return notice(errorText(r), 'error')
                notice(`Rolled back to version ${v.id}.`)
                documentView(file)
              },
            }, 'Roll back to this')
          : ''
      return h('tr', {}, h('td', {}, h('a', { href: `#version/${v.id}` }, String(v.id))), h('td', {}, v.state), h('td', {}, v.origin), h('td', {}, v.author), h('td', {}, v.reviewedBy ?? ''), h('td', {}, when(v.publishedAt)), h('td', {}, rollback))
    }),
  )
  show(at, h('h1', {}, published.label), h('p', {}, h('code', {}, file), ` published version ${published.id}`), editor, h('p', {}, save), h('h2', {}, 'History'), historyList)
}

async function reviewsView() {
  const at = location.hash
  const states = ['in_review', 'approved', 'draft', 'rejected']
  const sections = await Promise.all(
    states.map(async (state) => {
      const r = await api('GET', `/admin/api/versions?state=${state}`)
      const rows = r.json.payload ?? []
      return h(
        'section',
        {},
        h('h2', {}, `${state.replace('_', ' ')} (${rows.length})`),
        h('ul', { 'data-testid': `reviews-${state}` }, ...rows.map((v) => h('li', {}, h('a', { href: `#version/${v.id}` }, `#${v.id} ${v.label}`), ` by ${v.author}, ${when(v.updatedAt)}`))),
      )
    }),
  )
  show(at, h('h1', {}, 'Reviews'), ...sections)
}

function findingsList(findings) {
  if (findings.length === 0) return h('p', { className: 'diff-empty' }, 'No semantic changes.')
  const groups = Object.keys(IMPACT_LABELS)
    .map((impact) => [impact, findings.filter((f) => f.impact === impact)])
    .filter(([, group]) => group.length > 0)
  return h(
    'div',
    { className: 'diff', 'data-testid': 'diff' },
    ...groups.map(([impact, group]) =>
      h(
        'section',
        { className: `diff-group diff-${impact}` },
        h('h3', {}, IMPACT_LABELS[impact], ' ', h('span', { className: 'count' }, String(group.length))),
        h('ul', {}, ...group.map((f) => h('li', { className: `finding severity-${f.severity}`, 'data-fingerprint': f.fingerprint }, h('span', { className: 'severity' }, f.severity), ' ', h('span', { className: 'message' }, f.message), ' ', h('code', { className: 'where' }, f.location), ' ', h('code', { className: 'fingerprint' }, f.fingerprint)))),
      ),
    ),
  )
}

function defaultPreviewPath(version) {
  const parts = version.file.split('/')
  if (version.file.includes('/flows/signup')) return '/join'
  if (parts[0] === 'screens') {
    try {
      return JSON.parse(version.content).route.replace(/:[^/]+/g, 'x')
    } catch {
      return '/'
    }
  }
  return '/'
}

async function versionView(id) {
  const at = location.hash
  const result = await api('GET', `/admin/api/versions/${id}`)
  if (!result.ok) return show(at, h('p', {}, errorText(result)))
  const v = result.json.payload
  const mine = v.author.toLowerCase() === me.email.toLowerCase()
  const actions = h('div', { className: 'actions' })
  const comment = h('textarea', { className: 'comment', placeholder: 'Review comment (required to reject)', 'data-testid': 'review-comment' })
  const act = (label, testid, run) => {
    const button = h('button', { type: 'button', 'data-testid': testid }, label)
    button.addEventListener('click', async () => {
      button.disabled = true
      const r = await run()
      button.disabled = false
      if (!r.ok) return notice(errorText(r), 'error')
      notice(`${label}: done.`)
      versionView(id)
    })
    actions.append(button)
  }
  const editable = mine && me.role === 'operator' && (v.state === 'draft' || v.state === 'rejected')
  const editor = h('textarea', { className: 'editor', spellcheck: 'false', readonly: !editable, 'data-testid': 'version-editor' })
  editor.value = v.content
  if (editable) act('Save changes', 'update-draft', () => api('PUT', `/admin/api/versions/${id}`, { content: editor.value }))
  if (mine && v.state === 'draft') act('Submit for review', 'submit-draft', () => api('POST', `/admin/api/versions/${id}/submit`))
  if (me.role === 'compliance' && v.state === 'in_review' && !mine) {
    act('Approve', 'approve', () => api('POST', `/admin/api/versions/${id}/approve`, { comment: comment.value }))
    act('Reject', 'reject', () => api('POST', `/admin/api/versions/${id}/reject`, { comment: comment.value }))
  }
  if (v.state === 'approved') act('Publish', 'publish', () => api('POST', `/admin/api/versions/${id}/publish`))
  if (mine && ['draft', 'in_review', 'approved', 'rejected'].includes(v.state)) act('Withdraw', 'withdraw', () => api('POST', `/admin/api/versions/${id}/withdraw`))

  const lint = (v.lint ?? []).length
    ? h('ul', { className: 'lint', 'data-testid': 'lint' }, ...v.lint.map((f) => h('li', { className: `severity-${f.severity}` }, `${f.severity}: ${f.file}:${f.pointer || '/'}: ${f.message}`)))
    : h('p', { className: 'muted' }, v.state === 'draft' ? 'Lint runs when the draft is submitted.' : 'Lint: no findings.')

  const path = h('input', { value: defaultPreviewPath(v), 'data-testid': 'preview-path', size: 30 })
  const frames = h('div', { className: 'previews' })
  const preview = h('button', { type: 'button', 'data-testid': 'preview' }, 'Render both versions')
  preview.addEventListener('click', async () => {
    const r = await api('POST', `/admin/api/versions/${id}/preview`)
    if (!r.ok) return notice(errorText(r), 'error')
    const src = (token) => `${path.value.startsWith('/') ? path.value : '/' + path.value}?preview=${encodeURIComponent(token)}`
    frames.replaceChildren(
      h('figure', {}, h('figcaption', {}, 'Published'), h('iframe', { src: src(r.json.payload.before), width: 360, height: 740, title: 'published version', 'data-testid': 'preview-before' })),
      h('figure', {}, h('figcaption', {}, `Version ${id}`), h('iframe', { src: src(r.json.payload.after), width: 360, height: 740, title: 'this version', 'data-testid': 'preview-after' })),
    )
  })

  show(at, 
    h('h1', {}, `${v.label}: version ${v.id}`),
    h('p', { 'data-testid': 'version-state', 'data-state': v.state }, `State ${v.state.replace('_', ' ')}; author ${v.author}`, v.reviewedBy ? `; reviewed by ${v.reviewedBy}` : '', v.reviewComment ? ` (“${v.reviewComment}”)` : ''),
    h('p', {}, h('code', {}, v.file), ` based on published version ${v.baseVersion ?? 'none'}`),
    h('h2', {}, `Changes (${v.diff.summary.error} error, ${v.diff.summary.warning} warning, ${v.diff.summary.note} note)`),
    findingsList(v.diff.findings),
    h('h2', {}, 'Lint gate'),
    lint,
    me.role === 'compliance' ? comment : '',
    actions,
    h('h2', {}, 'Side by side'),
    h('p', {}, 'Path ', path, ' ', preview),
    frames,
    h('h2', {}, 'Document'),
    editor,
  )
}

async function waiversView() {
  const at = location.hash
  const result = await api('GET', '/admin/api/waivers')
  const { waivers, rules, maxDays } = result.json.payload
  const jurisdiction = h('input', { placeholder: 'jurisdiction, e.g. denmark', 'data-testid': 'waiver-jurisdiction' })
  const rule = h('select', { 'data-testid': 'waiver-rule' }, ...rules.map((r) => h('option', { value: r.id }, `${r.id}: ${r.description}`)))
  const documentFile = h('input', { placeholder: 'document, e.g. jurisdictions/denmark/jurisdiction.json', size: 48, 'data-testid': 'waiver-document' })
  const days = h('input', { type: 'number', min: 1, max: maxDays, value: 30, 'data-testid': 'waiver-days' })
  const reason = h('textarea', { placeholder: 'Reason (recorded in the audit log)', 'data-testid': 'waiver-reason' })
  const ask = h('button', { type: 'button', 'data-testid': 'waiver-request-button' }, 'Request waiver')
  ask.addEventListener('click', async () => {
    const expiresAt = new Date(Date.now() + Number(days.value) * 86400000).toISOString()
    const r = await api('POST', '/admin/api/waivers', { jurisdiction: jurisdiction.value, rule: rule.value, document: documentFile.value, reason: reason.value, expiresAt })
    if (!r.ok) return notice(errorText(r), 'error')
    waiversView()
  })
  const act = (w, path, label, body) =>
    h('button', {
      type: 'button',
      onclick: async () => {
        const r = await api('POST', `/admin/api/waivers/${w.id}/${path}`, body?.())
        if (!r.ok) return notice(errorText(r), 'error')
        waiversView()
      },
    }, label)
  const mine = (email) => email && email.toLowerCase() === me.email.toLowerCase()
  const controls = (w) => {
    if (w.status === 'requested' && me.role === 'compliance' && !mine(w.author)) return [act(w, 'approve', 'approve'), ' ', act(w, 'reject', 'reject')]
    if (w.status === 'revocation-requested' && me.role === 'compliance' && !mine(w.revocation.requestedBy)) return [act(w, 'revocation/approve', 'revoke'), ' ', act(w, 'revocation/reject', 'keep')]
    if (w.status === 'active') return [act(w, 'revoke', 'ask to revoke', () => ({ reason: prompt('Why revoke this waiver? (at least 10 characters)') ?? '' }))]
    return ''
  }
  const line = (w) =>
    `#${w.id} ${w.jurisdiction} / ${w.rule} / ${w.document || '(no document)'}: ${w.status}${w.expiresAt ? ` until ${when(w.expiresAt)}` : ''} — “${w.reason}” by ${w.author}${w.reviewedBy ? `, approved by ${w.reviewedBy}` : ''}${w.revocation ? `; revocation asked by ${w.revocation.requestedBy}: “${w.revocation.reason}”` : ''}${w.revokedBy ? `; revoked by ${w.revokedBy}` : ''} `
  show(at,
    h('h1', {}, 'Regulatory waivers'),
    h('p', {}, `A waiver lets one rule pass in one jurisdiction's one document until it ends (at most ${maxDays} days); granting and revoking each need a second person.`),
    h('ul', {}, ...waivers.map((w) => h('li', { 'data-testid': 'waiver-row', 'data-status': w.status }, line(w), controls(w)))),
    h('h2', {}, 'Request a waiver'),
    h('p', {}, jurisdiction, ' ', rule),
    h('p', {}, documentFile, ' for ', days, ' days'),
    reason,
    h('p', {}, ask),
  )
}

async function auditView() {
  const at = location.hash
  const [entries, verify] = await Promise.all([api('GET', '/admin/api/audit?limit=200'), api('GET', '/admin/api/audit/verify')])
  const v = verify.json.payload
  show(at, 
    h('h1', {}, 'Audit log'),
    h('p', { className: v.ok ? 'ok' : 'error', 'data-testid': 'audit-verify' }, v.ok ? `Chain intact: ${v.entries} entries.` : `Chain broken at entry #${v.firstBadSeq}: ${v.reason}`),
    h(
      'table',
      { className: 'audit' },
      h('tr', {}, h('th', {}, '#'), h('th', {}, 'time'), h('th', {}, 'actor'), h('th', {}, 'action'), h('th', {}, 'subject'), h('th', {}, 'details'), h('th', {}, 'hash')),
      ...(entries.json.payload ?? []).map((e) => h('tr', {}, h('td', {}, String(e.seq)), h('td', {}, when(e.at)), h('td', {}, e.actor), h('td', {}, e.action), h('td', {}, e.subject), h('td', {}, h('code', {}, JSON.stringify(e.details))), h('td', {}, h('code', {}, e.hash.slice(0, 12))))),
    ),
  )
}

// ---- outbox: SMS codes and e-mail links the simulators sent (every read is audited) ------------

// A link in a message is clickable only when it points at this server's own sites.
function linkOrText(word) {
  let url
  try {
    url = new URL(word)
  } catch {
    return word
  }
  const own = url.hostname === location.hostname || url.hostname.endsWith(`.${location.hostname}`)
  return own && (url.protocol === 'http:' || url.protocol === 'https:') ? h('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer' }, word) : word
}

const messageBody = (text) => h('pre', { className: 'message' }, ...text.split(/(\s+)/).map(linkOrText))

async function outboxView() {
  const at = location.hash
  const filter = h('input', { type: 'search', name: 'to', placeholder: 'Phone (+…) or e-mail; empty for all', maxlength: 254, 'data-testid': 'outbox-to' })
  const table = h('table', { className: 'outbox', 'data-testid': 'outbox-messages' })
  const status = h('p', { className: 'muted', role: 'status' })
  const load = async () => {
    const to = filter.value.trim()
    const result = await api('GET', `/admin/api/outbox${to ? `?to=${encodeURIComponent(to)}` : ''}`)
    if (!result.ok) return notice(errorText(result), 'error')
    const messages = result.json.payload.messages
    status.textContent = messages.length === 0 ? 'No messages. Sign-up sends them only while the simulators are on (PARLAY_SIMULATORS=on or npm run dev).' : `${messages.length} message(s), newest first. This read is in the audit log.`
    table.replaceChildren(
      h('tr', {}, h('th', {}, 'sent'), h('th', {}, 'channel'), h('th', {}, 'to'), h('th', {}, 'site'), h('th', {}, 'subject'), h('th', {}, 'text')),
      ...messages.map((m) => h('tr', { 'data-testid': 'outbox-message' }, h('td', {}, when(m.sentAt)), h('td', {}, m.channel), h('td', {}, m.to), h('td', {}, m.jurisdiction), h('td', {}, m.subject), h('td', {}, messageBody(m.body)))),
    )
  }
  const form = h('form', { className: 'outbox-filter' }, h('label', {}, 'Recipient ', filter), ' ', h('button', { type: 'submit', 'data-testid': 'outbox-show' }, 'Show'))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    load()
  })
  show(at, h('h1', {}, 'Outbox'), h('p', {}, 'SMS codes and e-mail links the sign-up sent through the simulators. Every time this list is shown, who read it and for which recipient goes into the audit log.'), form, status, table)
  await load()
}

// ---- messages to punters: one punter at once; a segment or everyone after a second admin approves

async function messagesView() {
  const at = location.hash
  const result = await api('GET', '/admin/api/messages')
  const messages = result.ok ? result.json.payload : []
  const audience = h('select', { 'data-testid': 'message-audience' }, h('option', { value: 'punter' }, 'One punter'), h('option', { value: 'segment' }, 'A segment'), h('option', { value: 'everyone' }, 'Everyone'))
  const accountNumber = h('input', { placeholder: 'account number, e.g. 10000001', maxlength: 12, 'data-testid': 'message-account' })
  const jurisdiction = h('input', { placeholder: 'jurisdiction, e.g. spain', maxlength: 20, 'data-testid': 'message-jurisdiction' })
  const state = h('input', { placeholder: 'state, e.g. OPENED', maxlength: 40 })
  const tier = h('input', { placeholder: 'tier, e.g. VIP', maxlength: 20 })
  const source = h('select', {}, h('option', { value: 'web' }, 'web'), h('option', { value: 'club' }, 'club'))
  const kind = h('select', { 'data-testid': 'message-kind' }, h('option', { value: 'INBOX' }, 'INBOX: kept in the inbox'), h('option', { value: 'EXTERNAL' }, 'EXTERNAL: shown on the page once'))
  const locale = h('select', {}, ...['en', 'ru', 'be', 'es', 'pt', 'da', 'it'].map((l) => h('option', { value: l }, l)))
  const text = h('textarea', { placeholder: 'Message text', maxlength: 1000, 'data-testid': 'message-text' })
  const send = h('button', { type: 'button', 'data-testid': 'message-send' }, 'Send')
  send.addEventListener('click', async () => {
    const type = audience.value
    const who = type === 'punter' ? { type, accountNumber: accountNumber.value.trim() } : type === 'segment' ? { type, ...(jurisdiction.value.trim() ? { jurisdiction: jurisdiction.value.trim() } : {}), ...(state.value.trim() ? { state: state.value.trim() } : {}), ...(tier.value.trim() ? { tier: tier.value.trim() } : {}) } : { type }
    const r = await api('POST', '/admin/api/messages', { audience: who, ...(type === 'everyone' ? {} : { source: source.value }), kind: kind.value, texts: { [locale.value]: text.value } })
    if (!r.ok) return notice(errorText(r), 'error')
    notice(r.status === 202 ? `Message #${r.json.payload.id} waits for a second admin's approval.` : `Message #${r.json.payload.id} delivered to ${r.json.payload.recipients} punter(s).`)
    messagesView()
  })
  const decide = (m, decision) =>
    h('button', {
      type: 'button',
      'data-testid': `message-${decision}`,
      onclick: async () => {
        const r = await api('POST', `/admin/api/messages/${m.id}/${decision}`)
        if (!r.ok) return notice(errorText(r), 'error')
        messagesView()
      },
    }, decision)
  const audienceText = (a) => (a.type === 'punter' ? `punter ${a.accountNumber}` : a.type === 'segment' ? `segment ${[a.jurisdiction, a.state, a.tier].filter(Boolean).join(' / ')}` : 'everyone')
  show(at,
    h('h1', {}, 'Messages to punters'),
    h('p', {}, 'A message to one punter goes out at once. A message to a segment or to everyone goes out only after a second admin approves it. Everything is in the audit log.'),
    h('p', {}, h('label', {}, 'To ', audience), ' ', accountNumber, ' ', jurisdiction, ' ', state, ' ', tier),
    h('p', {}, h('label', {}, 'Source ', source), ' ', h('label', {}, 'Kind ', kind), ' ', h('label', {}, 'Language ', locale)),
    text,
    h('p', {}, send),
    h('h2', {}, 'Latest messages'),
    h('ul', { 'data-testid': 'messages-list' }, ...messages.map((m) => h('li', { 'data-testid': 'message-row', 'data-status': m.status }, `#${m.id} ${m.status} — ${audienceText(m.audience)}, ${m.source}/${m.kind}: “${Object.values(m.texts)[0]}” by ${m.author}${m.approver ? `, approved by ${m.approver}` : ''}${m.status === 'DELIVERED' ? `, ${m.recipients} recipient(s)` : ''} `, m.status === 'PENDING_APPROVAL' && m.author !== me.email ? [decide(m, 'approve'), ' ', decide(m, 'reject')] : ''))),
  )
}

async function route() {
  const hash = decodeURIComponent(location.hash.slice(1))
  if (hash.startsWith('document/')) return documentView(hash.slice('document/'.length))
  if (hash.startsWith('version/')) return versionView(hash.slice('version/'.length))
  if (hash === 'documents') return documentsView()
  if (hash === 'waivers') return waiversView()
  if (hash === 'audit') return auditView()
  if (hash === 'outbox') return outboxView()
  if (hash === 'messages') return messagesView()
  return reviewsView()
}

async function mountApp() {
  const session = await api('GET', '/admin/api/session')
  if (!session.ok) return
  csrf = session.json.payload.csrf
  me = session.json.payload.user
  document.getElementById('logout').addEventListener('click', async () => {
    await api('POST', '/admin/api/logout')
    location.assign('/admin')
  })
  document.querySelector('header nav')?.append(' ', h('a', { href: '#outbox', 'data-testid': 'nav-outbox' }, 'Outbox'))
  document.querySelector('header nav')?.append(' ', h('a', { href: '#messages', 'data-testid': 'nav-messages' }, 'Messages'))
  document.querySelector('header nav')?.append(' ', h('a', { href: '/admin/studio', 'data-testid': 'nav-studio' }, 'Studio'))
  window.addEventListener('hashchange', route)
  route()
}

if (document.getElementById('login-form')) mountLogin()
else if (document.getElementById('app')) mountApp()
