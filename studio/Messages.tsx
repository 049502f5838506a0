/**
 * Messages to punters (what /admin's Messages page did): one punter at once; a segment or
 * everyone only after a second person approves. While it is written, the message shows as a demo
 * punter reads it — their inbox (INBOX) or their page with it as a notification (EXTERNAL) —
 * rendered by the real engine (server/admin/message-preview.ts); nothing is sent by a preview.
 */
import { useEffect, useMemo, useState } from 'react'
import { call, debounce, type Me, type SiteRow } from './api'
import { useFocusOnOpen } from './a11y'
import { punterLabel, useDemoPunters } from './Preview'
import { refusalText } from './refusals'

type Audience = { type: 'punter'; accountNumber: string } | { type: 'segment'; jurisdiction?: string; state?: string; tier?: string } | { type: 'everyone' }
interface Sent { id: number; status: string; audience: Audience; source: string; kind: string; texts: Record<string, string>; author: string; approver: string | null; recipients: number | null }
interface Fields { type: Audience['type']; accountNumber: string; jurisdiction: string; state: string; tier: string; source: string; kind: string; locale: string; text: string }

const START: Fields = { type: 'punter', accountNumber: '', jurisdiction: '', state: '', tier: '', source: 'web', kind: 'INBOX', locale: 'en', text: '' }

function audienceOf(f: Fields): Audience {
  if (f.type === 'punter') return { type: 'punter', accountNumber: f.accountNumber.trim() }
  if (f.type === 'everyone') return { type: 'everyone' }
  const pick = (v: string) => (v.trim() ? v.trim() : undefined)
  return { type: 'segment', jurisdiction: pick(f.jurisdiction), state: pick(f.state), tier: pick(f.tier) }
}
const audienceText = (a: Audience) => (a.type === 'punter' ? `punter ${a.accountNumber}` : a.type === 'segment' ? `segment ${[a.jurisdiction, a.state, a.tier].filter(Boolean).join(' / ')}` : 'everyone')

function MessagePreview({ fields }: { fields: Fields }) {
  const punters = useDemoPunters()
  const [as, setAs] = useState('')
  const [src, setSrc] = useState<string | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  // the punter the audience names, when it is a demo punter: the preview follows the form
  const named = fields.type === 'punter' ? punters.find((p) => p.accountNumber === fields.accountNumber.trim()) : fields.type === 'segment' ? punters.find((p) => p.jurisdiction === fields.jurisdiction.trim()) : undefined
  const punter = named?.accountNumber ?? (as || punters[0]?.accountNumber)
  const refresh = useMemo(
    () =>
      debounce(async (body: unknown) => {
        const answer = await call<{ token: string; path: string; locale: string }>('POST', '/admin/api/messages/preview', body)
        setProblem(answer.ok ? undefined : refusalText(answer))
        if (answer.ok) setSrc(`/${answer.payload.locale}${answer.payload.path === '/' ? '' : answer.payload.path}?preview=${encodeURIComponent(answer.payload.token)}`)
      }, 500),
    [],
  )
  useEffect(() => {
    if (!fields.text.trim() || !punter) return
    refresh({ punter, kind: fields.kind, source: fields.type === 'everyone' ? 'global' : fields.source, texts: { [fields.locale]: fields.text } })
  }, [refresh, punter, fields])
  return (
    <section className="message-preview" aria-labelledby="message-preview-title">
      <h2 id="message-preview-title">As the punter sees it</h2>
      <label>Show as{' '}
        <select value={punter ?? ''} data-testid="message-preview-as" onChange={(e) => setAs(e.target.value)}>
          {punters.map((p) => <option key={p.accountNumber} value={p.accountNumber}>{p.accountNumber} {punterLabel(p)} ({p.jurisdiction})</option>)}
        </select>
      </label>
      {problem ? <p className="error" role="alert">{problem}</p> : null}
      <iframe className="phone" src={src} width={360} height={740} title="the message as the punter sees it" data-testid="message-preview" />
    </section>
  )
}

export function Messages({ me, sites }: { me: Me; sites: SiteRow[] }) {
  const [f, setF] = useState<Fields>(START)
  const [list, setList] = useState<Sent[]>([])
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  const heading = useFocusOnOpen<HTMLHeadingElement>()
  const locales = [...new Set(sites.flatMap((s) => s.locales))]
  const load = async () => {
    const answer = await call<Sent[]>('GET', '/admin/api/messages')
    if (answer.ok) setList(answer.payload)
  }
  useEffect(() => void load(), [])
  const set = (key: keyof Fields) => (e: { target: { value: string } }) => setF({ ...f, [key]: e.target.value })
  const send = async () => {
    const answer = await call<{ id: number; recipients: number }>('POST', '/admin/api/messages', { audience: audienceOf(f), ...(f.type === 'everyone' ? {} : { source: f.source }), kind: f.kind, texts: { [f.locale]: f.text } })
    setNotice(!answer.ok ? { text: refusalText(answer), ok: false } : answer.status === 202 ? { text: `Message #${answer.payload.id} waits for a second person's approval.`, ok: true } : { text: `Message #${answer.payload.id} delivered to ${answer.payload.recipients} punter(s).`, ok: true })
    await load()
  }
  const decide = async (m: Sent, decision: 'approve' | 'reject') => {
    const answer = await call('POST', `/admin/api/messages/${m.id}/${decision}`)
    setNotice(answer.ok ? { text: `Message #${m.id}: ${decision === 'approve' ? 'approved and sent' : 'rejected'}.`, ok: true } : { text: refusalText(answer), ok: false })
    await load()
  }
  return (
    <div className="messages-panes">
      <section className="editor" aria-labelledby="messages-title">
        <h1 id="messages-title" tabIndex={-1} ref={heading}>Messages to punters</h1>
        <p>A message to one punter goes out at once. A message to a segment or to everyone goes out only after a second person approves it. Everything is in the audit log.</p>
        <form className="message-form" onSubmit={(e) => (e.preventDefault(), void send())}>
          <label>To <select value={f.type} data-testid="message-audience" onChange={set('type')}><option value="punter">One punter</option><option value="segment">A segment</option><option value="everyone">Everyone</option></select></label>
          {f.type === 'punter' ? <label>Account number <input value={f.accountNumber} maxLength={12} inputMode="numeric" placeholder="e.g. 10000001" data-testid="message-account" onChange={set('accountNumber')} /></label> : null}
          {f.type === 'segment' ? (
            <>
              <label>Jurisdiction <input value={f.jurisdiction} maxLength={20} placeholder="e.g. spain" data-testid="message-jurisdiction" onChange={set('jurisdiction')} /></label>
              <label>State <input value={f.state} maxLength={40} placeholder="e.g. OPENED" onChange={set('state')} /></label>
              <label>Tier <input value={f.tier} maxLength={20} placeholder="e.g. VIP" onChange={set('tier')} /></label>
            </>
          ) : null}
          {f.type !== 'everyone' ? <label>Source <select value={f.source} onChange={set('source')}><option value="web">web</option><option value="club">club</option></select></label> : null}
          <label>Kind <select value={f.kind} data-testid="message-kind" onChange={set('kind')}><option value="INBOX">INBOX: kept in the inbox</option><option value="EXTERNAL">EXTERNAL: shown on the page once</option></select></label>
          <label>Language <select value={f.locale} data-testid="message-locale" onChange={set('locale')}>{locales.map((l) => <option key={l} value={l}>{l}</option>)}</select></label>
          <label>Text <textarea value={f.text} maxLength={1000} data-testid="message-text" onChange={set('text')} /></label>
          <button type="submit" className="primary" disabled={!f.text.trim()} data-testid="message-send">Send</button>
        </form>
        {notice ? <p className={notice.ok ? 'notice info' : 'notice error'} role={notice.ok ? 'status' : 'alert'} data-testid="message-notice">{notice.text}</p> : null}
        <h2>Latest messages</h2>
        <ul data-testid="messages-list">
          {list.map((m) => (
            <li key={m.id} data-testid="message-row" data-status={m.status}>
              #{m.id} {m.status} — {audienceText(m.audience)}, {m.source}/{m.kind}: “{Object.values(m.texts)[0]}” by {m.author}
              {m.approver ? `, approved by ${m.approver}` : ''}{m.status === 'DELIVERED' ? `, ${m.recipients} recipient(s)` : ''}{' '}
              {m.status === 'PENDING_APPROVAL' && m.author.toLowerCase() !== me.email.toLowerCase() ? (
                <>
                  <button type="button" data-testid="message-approve" onClick={() => void decide(m, 'approve')}>Approve #{m.id}</button>{' '}
                  <button type="button" data-testid="message-reject" onClick={() => void decide(m, 'reject')}>Reject #{m.id}</button>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <MessagePreview fields={f} />
    </div>
  )
}
