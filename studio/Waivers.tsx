/**
 * Waivers in the studio (issues 19 and 29): a regulatory finding can be waived for one rule, one
 * jurisdiction and one document until an end time; a second person (compliance, never the one who
 * asked) approves it, and a revocation is asked by one and approved by another — the same API and
 * four-eyes rules as /admin → Waivers (server/admin/waivers.ts), so a reviewer does not leave the
 * release they are reading to settle a finding.
 */
import { useCallback, useEffect, useState } from 'react'
import { call, errorText, type Me, type SiteRow } from './api'

type Status = 'requested' | 'active' | 'revocation-requested' | 'expired' | 'rejected' | 'revoked'
interface Waiver {
  id: number
  jurisdiction: string
  rule: string
  document: string
  reason: string
  author: string
  status: Status
  reviewedBy: string | null
  expiresAt: number | null
  revocation: { requestedBy: string; reason: string } | null
  revokedBy: string | null
}
interface Rule {
  id: string
  kind: 'rule' | 'diff-class'
  description: string
  jurisdictions: string[] | null
}

const DAY = 86_400_000
const day = (ms: number | null) => (ms ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : '—')
const same = (a: string | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase()

function RequestWaiver({ sites, rules, maxDays, onDone }: { sites: SiteRow[]; rules: Rule[]; maxDays: number; onDone: (text: string, ok: boolean) => void }) {
  const jurisdictions = [...new Set(sites.map((s) => s.jurisdiction))].sort()
  const [jurisdiction, setJurisdiction] = useState(jurisdictions[0] ?? '')
  const offered = rules.filter((r) => !r.jurisdictions || r.jurisdictions.includes(jurisdiction))
  const [rule, setRule] = useState('')
  const [document, setDocument] = useState('')
  const [days, setDays] = useState(30)
  const [reason, setReason] = useState('')
  const chosen = offered.some((r) => r.id === rule) ? rule : (offered[0]?.id ?? '')
  const send = async () => {
    const expiresAt = new Date(Date.now() + days * DAY).toISOString()
    const answer = await call<Waiver>('POST', '/admin/api/waivers', { jurisdiction, rule: chosen, document: document.trim(), reason: reason.trim(), expiresAt })
    if (answer.ok) setReason('')
    onDone(answer.ok ? `Waiver #${answer.payload.id} requested: a second person approves it.` : errorText(answer), answer.ok)
  }
  return (
    <form className="new-release" aria-labelledby="waiver-request" onSubmit={(e) => (e.preventDefault(), void send())}>
      <h3 id="waiver-request">Ask for a waiver</h3>
      <label>
        Jurisdiction{' '}
        <select value={jurisdiction} data-testid="waiver-jurisdiction" onChange={(e) => setJurisdiction(e.target.value)}>
          {jurisdictions.map((j) => (
            <option key={j} value={j}>{j}</option>
          ))}
        </select>
      </label>
      <label>
        Rule{' '}
        <select value={chosen} data-testid="waiver-rule" onChange={(e) => setRule(e.target.value)}>
          {offered.map((r) => (
            <option key={r.id} value={r.id}>{r.id}: {r.description}</option>
          ))}
        </select>
      </label>
      <label>
        Document <input value={document} size={48} placeholder={`jurisdictions/${jurisdiction}/jurisdiction.json`} data-testid="waiver-document" onChange={(e) => setDocument(e.target.value)} />
      </label>
      <label>
        Ends after (days, at most {maxDays}) <input type="number" min={1} max={maxDays} value={days} data-testid="waiver-days" onChange={(e) => setDays(Number(e.target.value))} />
      </label>
      <label>
        Reason (at least 10 characters) <textarea value={reason} rows={2} data-testid="waiver-reason" onChange={(e) => setReason(e.target.value)} />
      </label>
      <button type="submit" className="primary" data-testid="waiver-request-button" disabled={!chosen || !document.trim() || reason.trim().length < 10 || days < 1 || days > maxDays}>Ask for the waiver</button>
    </form>
  )
}

/** What this admin may do with a waiver now: decide a request or a revocation, or ask to revoke. */
function Decision({ waiver: w, me, act }: { waiver: Waiver; me: Me; act: (w: Waiver, path: string, done: string, body?: unknown) => void }) {
  const [why, setWhy] = useState('')
  if (w.status === 'requested')
    return me.role === 'compliance' && !same(w.author, me.email) ? (
      <>
        <button type="button" className="primary" data-testid="waiver-approve" aria-label={`Approve waiver ${w.id}`} onClick={() => act(w, 'approve', 'approved')}>Approve</button>{' '}
        <button type="button" aria-label={`Reject waiver ${w.id}`} onClick={() => act(w, 'reject', 'rejected')}>Reject</button>
      </>
    ) : <span className="muted">waits for a second person</span>
  if (w.status === 'revocation-requested')
    return me.role === 'compliance' && !same(w.revocation?.requestedBy, me.email) ? (
      <>
        <button type="button" className="primary" data-testid="waiver-revoke-approve" aria-label={`Revoke waiver ${w.id}`} onClick={() => act(w, 'revocation/approve', 'revoked')}>Revoke</button>{' '}
        <button type="button" aria-label={`Keep waiver ${w.id}`} onClick={() => act(w, 'revocation/reject', 'kept')}>Keep</button>
      </>
    ) : <span className="muted">revocation waits for a second person</span>
  if (w.status !== 'active') return null
  return (
    <form onSubmit={(e) => (e.preventDefault(), act(w, 'revoke', 'revocation asked', { reason: why.trim() }))}>
      <input value={why} placeholder="why revoke (10+ characters)" aria-label={`Why revoke waiver ${w.id}`} data-testid="waiver-revoke-reason" onChange={(e) => setWhy(e.target.value)} />{' '}
      <button type="submit" data-testid="waiver-revoke" disabled={why.trim().length < 10}>Ask to revoke</button>
    </form>
  )
}

export function Waivers({ me, sites, onChanged }: { me: Me; sites: SiteRow[]; onChanged: () => void }) {
  const [waivers, setWaivers] = useState<Waiver[]>([])
  const [rules, setRules] = useState<Rule[]>([])
  const [maxDays, setMaxDays] = useState(180)
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  const load = useCallback(async () => {
    const answer = await call<{ waivers: Waiver[]; rules: Rule[]; maxDays: number }>('GET', '/admin/api/waivers')
    if (answer.ok) (setWaivers(answer.payload.waivers), setRules(answer.payload.rules), setMaxDays(answer.payload.maxDays))
  }, [])
  useEffect(() => void load(), [load])
  const done = (text: string, ok: boolean) => (setNotice({ text, ok }), void load(), onChanged())
  const act = async (waiver: Waiver, path: string, word: string, body?: unknown) => {
    const answer = await call<Waiver>('POST', `/admin/api/waivers/${waiver.id}/${path}`, body)
    done(answer.ok ? `Waiver #${waiver.id} ${word}.` : errorText(answer), answer.ok)
  }
  return (
    <section className="waivers" aria-labelledby="waivers-title" data-testid="waivers">
      <h2 id="waivers-title">Waivers of regulatory findings</h2>
      <p className="muted">A waiver lets one rule pass in one jurisdiction's one document until it ends. Compliance approves it, and a revocation, never the person who asked.</p>
      {notice ? <p className={notice.ok ? 'notice info' : 'notice error'} role="status" data-testid="waiver-notice">{notice.text}</p> : null}
      <div className="table-scroll" role="region" aria-labelledby="waivers-title" tabIndex={0}>
      <table>
        <caption className="muted">{waivers.length === 0 ? 'No waivers yet.' : `${waivers.length} waivers, newest first`}</caption>
        <thead>
          <tr><th scope="col">#</th><th scope="col">Jurisdiction</th><th scope="col">Rule</th><th scope="col">Document</th><th scope="col">Reason</th><th scope="col">Asked by</th><th scope="col">Status</th><th scope="col">Ends</th><th scope="col"><span className="visually-hidden">Decision</span></th></tr>
        </thead>
        <tbody>
          {waivers.map((w) => (
            <tr key={w.id} data-testid="waiver-row" data-state={w.status}>
              <td>{w.id}</td>
              <td>{w.jurisdiction}</td>
              <td><code>{w.rule}</code></td>
              <td><code>{w.document || '—'}</code></td>
              <td>{w.reason}{w.revocation ? ` — revocation asked by ${w.revocation.requestedBy}: ${w.revocation.reason}` : ''}</td>
              <td>{w.author}</td>
              <td>{w.status}{w.reviewedBy ? ` (approved by ${w.reviewedBy})` : ''}{w.revokedBy ? ` (revoked by ${w.revokedBy})` : ''}</td>
              <td>{day(w.expiresAt)}</td>
              <td><Decision waiver={w} me={me} act={(x, path, word, body) => void act(x, path, word, body)} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <RequestWaiver sites={sites} rules={rules} maxDays={maxDays} onDone={done} />
    </section>
  )
}
