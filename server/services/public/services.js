// The services page of /admin (server/services/page.ts): analytics events, reported errors with
// source-mapped frames, recognitions and multi-accounting, session replays, taps per page. Plain DOM, no framework, no inline code.
const app = () => document.getElementById('app')
const when = (ms) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) : '')

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'className') node.className = value
    else node.setAttribute(key, value)
  }
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child ?? '')))
  return node
}

async function read(path) {
  const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } })
  const body = await response.json().catch(() => ({}))
  if (body.status !== 'OK') throw new Error(body.errorCode || `HTTP ${response.status}`)
  return body.payload
}

const table = (testid, head, rows) =>
  h('table', { 'data-testid': testid }, h('tr', {}, ...head.map((t) => h('th', {}, t))), ...rows.map((cells) => h('tr', {}, ...cells.map((c) => h('td', {}, c)))))

/** Who sent a record: the punter of its session, or "anonymous" (a guest's device; issue 30: never a body's claim). */
const punterCell = (userId) => (userId ? userId : h('span', { className: 'muted', 'data-testid': 'services-anonymous' }, 'anonymous'))

async function eventsView() {
  const events = await read('/admin/api/services/events?limit=300')
  return [
    h('h1', {}, 'Analytics events'),
    table(
      'services-events',
      ['received', 'event', 'section', 'device', 'punter', 'properties'],
      events.map((e) => [when(e.receivedAt), e.eventType, e.section ?? '', e.deviceId, punterCell(e.userId), h('code', {}, JSON.stringify(e.properties.event))]),
    ),
  ]
}

const frameText = (f) => (f.source ? `${f.source.file}:${f.source.line}:${f.source.column}${f.source.name ? ` (${f.source.name})` : ''}` : `${f.file}:${f.line}:${f.column}`)

async function errorsView() {
  const errors = await read('/admin/api/services/errors?limit=200')
  return [
    h('h1', {}, 'Errors'),
    table(
      'services-errors',
      ['received', 'origin', 'kind', 'punter', 'message', 'request id', 'frames'],
      errors.map((e) => [when(e.receivedAt), e.origin, e.kind, e.origin === 'server' ? '' : punterCell(e.userId), e.message, e.requestId ?? '', h('pre', {}, e.frames.slice(0, 8).map(frameText).join('\n'))]),
    ),
  ]
}

async function recognitionsView() {
  const { recognitions, sharedVisitors } = await read('/admin/api/services/recognitions?limit=300')
  return [
    h('h1', {}, 'Multi-accounting'),
    sharedVisitors.length === 0
      ? h('p', { 'data-testid': 'services-shared-none' }, 'No browser is shared by two punters.')
      : table('services-shared', ['visitor id', 'punters', 'last seen'], sharedVisitors.map((v) => [v.visitorId, v.punterIds.join(', '), when(v.lastSeen)])),
    h('h2', {}, 'Recognitions'),
    table(
      'services-recognitions',
      ['time', 'account', 'visitor id', 'operation', 'mobile', 'mirror'],
      recognitions.map((r) => [when(r.createdAt), r.accountNumber ?? String(r.punterId), r.visitorId, r.operationType, r.isMobileDevice ? 'yes' : 'no', r.isMirror ? 'yes' : 'no']),
    ),
  ]
}

async function replaysView() {
  const sessions = await read('/admin/api/services/replays?limit=100')
  return [
    h('h1', {}, 'Session replays'),
    sessions.length === 0
      ? h('p', { 'data-testid': 'services-replays-none' }, 'No session recorded yet.')
      : table(
          'services-replays',
          ['started', 'ended', 'device', 'punter', 'events', 'size', ''],
          sessions.map((r) => [when(r.startedAt), when(r.endedAt), r.deviceId, r.userIds.length > 0 ? r.userIds.join(', ') : punterCell(null), String(r.events), `${Math.ceil(r.bytes / 1024)} KB`, h('a', { href: `#replay/${r.deviceId}/${r.sessionId}`, 'data-testid': 'services-replay-play' }, 'Play')]),
        ),
  ]
}

// Interaction summaries: which elements of each page punters tap, counted in windows of an hour
async function clicksView() {
  const clicks = await read('/admin/api/services/clicks?limit=300')
  return [
    h('h1', {}, 'Taps per page'),
    clicks.length === 0
      ? h('p', { 'data-testid': 'services-clicks-none' }, 'No taps counted yet (replay must be on for the site).')
      : table('services-clicks', ['page', 'element', 'taps', 'sessions'], clicks.map((c) => [c.page, c.target, String(c.clicks), String(c.sessions)])),
  ]
}

// Contact-us messages (issue 34): newest first, with the reference the punter was given; the read is audited
async function contactView() {
  const { messages } = await read('/admin/api/contact-messages?limit=200')
  return [
    h('h1', {}, 'Contact messages'),
    messages.length === 0
      ? h('p', { 'data-testid': 'contact-messages-none' }, 'No message yet.')
      : table(
          'contact-messages',
          ['received', 'reference', 'site', 'locale', 'punter', 'name', 'e-mail', 'topic', 'message'],
          messages.map((m) => [when(m.createdAt), m.reference, m.jurisdiction, m.locale, punterCell(m.punterId ? String(m.punterId) : null), m.name, m.email, m.topic, h('pre', {}, m.message)]),
        ),
  ]
}

// One session played back by rrweb's replayer (its own file, loaded on first use) under the site's CSP
// (replay-csp.js); viewing is audited.
async function replayView(deviceId, sessionId) {
  const [{ Replayer }, { cspReplayer }, replay] = await Promise.all([
    import('/admin/services/static/rrweb.js'),
    import('/admin/services/static/replay-csp.js'),
    read(`/admin/api/services/replays/${encodeURIComponent(deviceId)}/${encodeURIComponent(sessionId)}`),
  ])
  const stage = h('div', { className: 'replay-stage', 'data-testid': 'services-replay-stage' })
  const nodes = [h('h1', {}, `Replay of ${deviceId}`), h('p', {}, h('a', { href: '#replays' }, 'All replays'), ` · ${replay.events.length} events`), stage]
  // the replayer builds its iframe inside the stage, so it starts once the stage is in the page
  nodes.mounted = () => {
    // played under the page's CSP (the site's): styles through the CSSOM, never as markup
    const player = cspReplayer(Replayer, replay.events, { root: stage, mouseTail: false, skipInactive: true })
    player.play()
    stage.dataset.state = 'playing'
  }
  return nodes
}

async function route() {
  const at = location.hash
  const replay = /^#replay\/([A-Za-z0-9_-]+)\/([0-9]+)$/.exec(at)
  const views = { '#errors': errorsView, '#recognitions': recognitionsView, '#replays': replaysView, '#clicks': clicksView, '#contact': contactView }
  const view = replay ? () => replayView(replay[1], replay[2]) : views[at] ?? eventsView
  try {
    const nodes = await view()
    if (at !== location.hash) return
    app().replaceChildren(...nodes)
    nodes.mounted?.()
  } catch (error) {
    app().replaceChildren(h('p', { role: 'alert' }, `Could not load: ${error.message}`))
  }
}

window.addEventListener('hashchange', route)
route()
