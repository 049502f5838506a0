// Parlay admin page: plain DOM, no framework, no innerHTML (every text goes through textContent),
// served same-origin so the CSP (script-src 'self', style-src 'self') holds. Sign-in (both steps)
// and the account page are admin-account.js; the DOM and API helpers are admin-dom.js.

import { api, h, setCsrf } from './admin-dom.js'
import { mountAccount, mountLogin } from './admin-account.js'

const IMPACT_LABELS = {
  'age-gate': 'age gate',
  'consent-legal': 'consent and legal',
  'self-exclusion-limits': 'self-exclusion and limits',
  'responsible-gambling': 'responsible gambling and reality check',
  'identity-kyc': 'identity and KYC',
  'money-bonus': 'money and bonus',
  validation: 'input validation',
  copy: 'copy',
  cosmetic: 'cosmetic',
}

let me = null

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
                if (!confirm(`Ask to put version ${v.id} of ${file} live again? A second person approves the rollback.`)) return
                const r = await api('POST', '/admin/api/rollback', { file, version: v.id })
                if (!r.ok) return notice(errorText(r), 'error')
                notice(`Rollback to version ${v.id} requested (#${r.json.payload.id}): a second person approves it.`)
                documentView(file)
              },
            }, 'Ask to roll back to this')
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
        h('ul', {}, ...group.map((f) => h('li', { className: `finding severity-${f.severity}`, 'data-fingerprint': f.fingerprint }, h('span', { className: 'severity' }, f.severity), ' ', h('span', { className: 'message' }, f.message), ' ', h('code', { className: 'where' }, f.location), ' ', h('code', { className: 'fingerprint' }, f.fingerprint), saidList(f.said)))),
      ),
    ),
  )
}

// A finding in the punter's words, one line per locale the document reaches (server/admin/review.ts).
const saidList = (said) => (said?.length ? h('ul', { className: 'said', 'data-testid': 'said' }, ...said.map((w) => h('li', { lang: w.locale }, h('code', {}, w.locale), ' ', w.message))) : '')

// Where the change goes live: the document's sites and locales, never the admin's host.
function reachLine(reach) {
  if (!reach.sites.length) return h('p', { className: 'muted', 'data-testid': 'reach' }, 'This change reaches no site.')
  const sites = reach.sites.map((s) => `${s.name} (${s.locales.join(', ')})`).join('; ')
  const own = reach.ownCopies.length ? ` Not on ${reach.ownCopies.map((c) => c.name).join(', ')}: each serves its own copy.` : ''
  return h('p', { 'data-testid': 'reach' }, `Goes live on ${sites}.${own}`)
}

let punters = null
const demoPunters = async () => (punters ??= (await api('GET', '/admin/api/studio/punters')).json.payload ?? [])

// Both versions of one site, in each locale the change reaches there, at phone size; the page's
// locale is its path prefix. The first pair keeps the plain test ids.
function sitePairs(id, preview, path, first) {
  const page = (locale, token) => `/${locale}${path === '/' ? '' : path}?preview=${encodeURIComponent(token)}`
  const frame = (side, locale, token, title, index) =>
    h('iframe', { src: page(locale, token), width: 360, height: 740, loading: 'lazy', title, 'data-site': preview.site, 'data-locale': locale, 'data-side': side, 'data-testid': first && index === 0 ? `preview-${side}` : `preview-${side}-${preview.site}-${locale}` })
  return preview.locales.map((locale, index) =>
    h('div', { className: 'pair' },
      h('figure', {}, h('figcaption', {}, `Published · ${preview.name} · ${locale}`), frame('before', locale, preview.before, `published version, ${preview.name}, ${locale}`, index)),
      h('figure', {}, h('figcaption', {}, `Version ${id} · ${preview.name} · ${locale}`), frame('after', locale, preview.after, `this version, ${preview.name}, ${locale}`, index)),
    ),
  )
}

// One site's section: its pairs and "Show as" (a guest or one of the site's demo punters).
async function siteSection(id, preview, path, first) {
  const site = h('section', { className: 'site-previews', 'data-site': preview.site })
  const as = h('select', { 'data-testid': `show-as-${preview.site}` }, h('option', { value: '' }, 'a guest (not logged in)'))
  for (const p of (await demoPunters()).filter((p) => p.jurisdiction === preview.jurisdiction)) as.append(h('option', { value: p.accountNumber }, `${p.nickname ?? p.accountNumber} (${p.state})`))
  const pairs = h('div', { className: 'previews' }, ...sitePairs(id, preview, path, first))
  as.addEventListener('change', async () => {
    const r = await api('POST', `/admin/api/versions/${id}/preview`, { site: preview.site, ...(as.value ? { punter: as.value } : {}) })
    if (!r.ok) return notice(errorText(r), 'error')
    pairs.replaceChildren(...sitePairs(id, { ...r.json.payload.previews[0], locales: preview.locales }, path, first))
  })
  site.append(h('h3', {}, preview.name, ' ', h('label', { className: 'muted' }, 'Show as ', as)), pairs)
  return site
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
  if (editable) act('Save changes', 'update-draft', () => api('PUT', `/admin/api/versions/${id}`, { content: editor.value, revision: v.revision }))
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

  const path = h('input', { value: v.reach.path, 'data-testid': 'preview-path', size: 30 })
  const frames = h('div', { className: 'site-list' })
  const preview = h('button', { type: 'button', 'data-testid': 'preview' }, 'Render both versions')
  preview.addEventListener('click', async () => {
    const r = await api('POST', `/admin/api/versions/${id}/preview`)
    if (!r.ok) return notice(errorText(r), 'error')
    const at = path.value.startsWith('/') ? path.value : `/${path.value}`
    frames.replaceChildren(...(await Promise.all(r.json.payload.previews.map((p, i) => siteSection(id, p, at, i === 0)))))
  })

  show(at, 
    h('h1', {}, `${v.label}: version ${v.id}`),
    h('p', { 'data-testid': 'version-state', 'data-state': v.state }, `State ${v.state.replace('_', ' ')}; author ${v.author}`, v.reviewedBy ? `; reviewed by ${v.reviewedBy}` : '', v.reviewComment ? ` (“${v.reviewComment}”)` : ''),
    h('p', {}, h('code', {}, v.file), ` based on published version ${v.baseVersion ?? 'none'}`),
    h('h2', {}, `Changes (${v.diff.summary.error} error, ${v.diff.summary.warning} warning, ${v.diff.summary.note} note)`),
    reachLine(v.reach),
    findingsList(v.diff.findings),
    h('h2', {}, 'Lint gate'),
    lint,
    me.role === 'compliance' ? comment : '',
    actions,
    h('h2', {}, 'Side by side'),
    h('p', {}, 'Both versions on every site and in every language the change goes live in, at phone size. Page ', path, ' ', preview),
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
  const locale = h('select', { 'data-testid': 'message-locale' }, ...['en', 'ru', 'be', 'es', 'pt', 'da', 'it'].map((l) => h('option', { value: l }, l)))
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
  const preview = await messagePreview({ audience, accountNumber, jurisdiction, source, kind, locale, text })
  show(at,
    h('h1', {}, 'Messages to punters'),
    h('p', {}, 'A message to one punter goes out at once. A message to a segment or to everyone goes out only after a second admin approves it. Everything is in the audit log.'),
    h('p', {}, h('label', {}, 'To ', audience), ' ', accountNumber, ' ', jurisdiction, ' ', state, ' ', tier),
    h('p', {}, h('label', {}, 'Source ', source), ' ', h('label', {}, 'Kind ', kind), ' ', h('label', {}, 'Language ', locale)),
    text,
    h('p', {}, send),
    preview,
    h('h2', {}, 'Latest messages'),
    h('ul', { 'data-testid': 'messages-list' }, ...messages.map((m) => h('li', { 'data-testid': 'message-row', 'data-status': m.status }, `#${m.id} ${m.status} — ${audienceText(m.audience)}, ${m.source}/${m.kind}: “${Object.values(m.texts)[0]}” by ${m.author}${m.approver ? `, approved by ${m.approver}` : ''}${m.status === 'DELIVERED' ? `, ${m.recipients} recipient(s)` : ''} `, m.status === 'PENDING_APPROVAL' && m.author !== me.email ? [decide(m, 'approve'), ' ', decide(m, 'reject')] : ''))),
  )
}

// The message as a demo punter reads it, while it is written: their inbox (INBOX) or their page
// with it as a notification (EXTERNAL), rendered by the real engine (server/admin/message-preview.ts).
async function messagePreview(fields) {
  const all = await demoPunters()
  const as = h('select', { 'data-testid': 'message-preview-as' }, ...all.map((p) => h('option', { value: p.accountNumber }, `${p.nickname ?? p.accountNumber} (${p.jurisdiction}, ${p.state})`)))
  const frame = h('iframe', { width: 360, height: 740, title: 'the message as the punter sees it', 'data-testid': 'message-preview' })
  const problem = h('p', { className: 'error', role: 'alert' })
  const follow = () => {
    const a = fields.audience.value
    const named = a === 'punter' ? all.find((p) => p.accountNumber === fields.accountNumber.value.trim()) : a === 'segment' ? all.find((p) => p.jurisdiction === fields.jurisdiction.value.trim()) : undefined
    if (named) as.value = named.accountNumber
  }
  let timer
  const refresh = () => {
    clearTimeout(timer)
    timer = setTimeout(async () => {
      if (!fields.text.value.trim()) return
      const source = fields.audience.value === 'everyone' ? 'global' : fields.source.value
      const r = await api('POST', '/admin/api/messages/preview', { punter: as.value, kind: fields.kind.value, source, texts: { [fields.locale.value]: fields.text.value } })
      problem.textContent = r.ok ? '' : errorText(r)
      if (r.ok) frame.src = `/${r.json.payload.locale}${r.json.payload.path === '/' ? '' : r.json.payload.path}?preview=${encodeURIComponent(r.json.payload.token)}`
    }, 500)
  }
  for (const input of [fields.text, fields.accountNumber, fields.jurisdiction]) input.addEventListener('input', () => (follow(), refresh()))
  for (const select of [fields.audience, fields.source, fields.kind, fields.locale, as]) select.addEventListener('change', () => (select !== as && follow(), refresh()))
  return h('section', { className: 'message-preview' }, h('h2', {}, 'As the punter sees it'), h('p', {}, h('label', {}, 'Show as ', as)), problem, frame)
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
  setCsrf(session.json.payload.csrf)
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
else if (document.getElementById('account')) mountAccount()
else if (document.getElementById('app')) mountApp()
