/**
 * Waivers in the studio (issue 19 item 6): a regulatory rule's finding can be waived for one
 * jurisdiction with a reason, and a second person (compliance, never the one who asked) approves or
 * rejects it — the same API and four-eyes rules as /admin → Waivers (server/admin/router.ts), so
 * a reviewer does not leave the release they are reading to settle a finding.
 */
import { useCallback, useEffect, useState } from 'react'
import { call, errorText, type Me, type SiteRow } from './api'

interface Waiver {
  id: number
  jurisdiction: string
  rule: string
  reason: string
  author: string
  state: 'requested' | 'approved' | 'rejected' | 'revoked'
  reviewedBy: string | null
}
interface Rule {
  id: string
  description: string
  jurisdictions: string[] | null
}

function RequestWaiver({ sites, rules, onDone }: { sites: SiteRow[]; rules: Rule[]; onDone: (text: string, ok: boolean) => void }) {
  const jurisdictions = [...new Set(sites.map((s) => s.jurisdiction))].sort()
  const [jurisdiction, setJurisdiction] = useState(jurisdictions[0] ?? '')
  const offered = rules.filter((r) => !r.jurisdictions || r.jurisdictions.includes(jurisdiction))
  const [rule, setRule] = useState('')
  const [reason, setReason] = useState('')
  const chosen = offered.some((r) => r.id === rule) ? rule : (offered[0]?.id ?? '')
  const send = async () => {
    const answer = await call<Waiver>('POST', '/admin/api/waivers', { jurisdiction, rule: chosen, reason: reason.trim() })
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
        Reason (at least 10 characters) <textarea value={reason} rows={2} data-testid="waiver-reason" onChange={(e) => setReason(e.target.value)} />
      </label>
      <button type="submit" className="primary" data-testid="waiver-request-button" disabled={!chosen || reason.trim().length < 10}>Ask for the waiver</button>
    </form>
  )
}

export function Waivers({ me, sites, onChanged }: { me: Me; sites: SiteRow[]; onChanged: () => void }) {
  const [waivers, setWaivers] = useState<Waiver[]>([])
  const [rules, setRules] = useState<Rule[]>([])
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  const load = useCallback(async () => {
    const answer = await call<{ waivers: Waiver[]; rules: Rule[] }>('GET', '/admin/api/waivers')
    if (answer.ok) (setWaivers(answer.payload.waivers), setRules(answer.payload.rules))
  }, [])
  useEffect(() => void load(), [load])
  const done = (text: string, ok: boolean) => (setNotice({ text, ok }), void load(), onChanged())
  const decide = async (waiver: Waiver, decision: 'approve' | 'reject') => {
    const answer = await call<Waiver>('POST', `/admin/api/waivers/${waiver.id}/${decision}`)
    done(answer.ok ? `Waiver #${waiver.id} ${answer.payload.state}.` : errorText(answer), answer.ok)
  }
  const mine = (w: Waiver) => w.author.toLowerCase() === me.email.toLowerCase()
  return (
    <section className="waivers" aria-labelledby="waivers-title" data-testid="waivers">
      <h2 id="waivers-title">Waivers of regulatory findings</h2>
      <p className="muted">A waiver lets one jurisdiction's documents pass one regulatory rule. Compliance approves it; never the person who asked.</p>
      {notice ? <p className={notice.ok ? 'notice info' : 'notice error'} role="status" data-testid="waiver-notice">{notice.text}</p> : null}
      <div className="table-scroll" role="region" aria-labelledby="waivers-title" tabIndex={0}>
      <table>
        <caption className="muted">{waivers.length === 0 ? 'No waivers yet.' : `${waivers.length} waivers, newest first`}</caption>
        <thead>
          <tr><th scope="col">#</th><th scope="col">Jurisdiction</th><th scope="col">Rule</th><th scope="col">Reason</th><th scope="col">Asked by</th><th scope="col">State</th><th scope="col"><span className="visually-hidden">Decision</span></th></tr>
        </thead>
        <tbody>
          {waivers.map((w) => (
            <tr key={w.id} data-testid="waiver-row" data-state={w.state}>
              <td>{w.id}</td>
              <td>{w.jurisdiction}</td>
              <td><code>{w.rule}</code></td>
              <td>{w.reason}</td>
              <td>{w.author}</td>
              <td>{w.state}{w.reviewedBy ? ` by ${w.reviewedBy}` : ''}</td>
              <td>
                {me.role === 'compliance' && w.state === 'requested' && !mine(w) ? (
                  <>
                    <button type="button" className="primary" data-testid="waiver-approve" aria-label={`Approve waiver ${w.id}`} onClick={() => void decide(w, 'approve')}>Approve</button>{' '}
                    <button type="button" aria-label={`Reject waiver ${w.id}`} onClick={() => void decide(w, 'reject')}>Reject</button>
                  </>
                ) : w.state === 'requested' && mine(w) ? <span className="muted">waits for a second person</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <RequestWaiver sites={sites} rules={rules} onDone={done} />
    </section>
  )
}
