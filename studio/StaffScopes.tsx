/**
 * Staff accounts and the jurisdictions each may change (issue 29 item 7), for compliance: what
 * `npm run admin -- scope` does, in the studio. No box ticked means not limited. The server
 * (server/admin/staff-scopes.ts) refuses a change that widens the signed-in account's own reach and
 * audits every change and refusal; the refusal's reason is shown here.
 */
import { useCallback, useEffect, useState } from 'react'
import { call, errorText } from './api'

interface StaffRow {
  id: number
  email: string
  name: string
  role: string
  disabled: boolean
  jurisdictions: string[] | null
}

function ScopeRow({ row, all, onSaved }: { row: StaffRow; all: string[]; onSaved: (text: string, ok: boolean) => void }) {
  const [picked, setPicked] = useState<string[]>(row.jurisdictions ?? [])
  const changed = [...picked].sort().join(',') !== (row.jurisdictions ?? []).join(',')
  const save = async () => {
    const answer = await call<StaffRow>('PUT', `/admin/api/staff/${row.id}/scope`, { jurisdictions: picked.length > 0 ? picked : null })
    const reason = (answer.payload as unknown as { reason?: string } | undefined)?.reason
    onSaved(answer.ok ? `${row.email}: ${picked.length > 0 ? `limited to ${[...picked].sort().join(', ')}` : 'not limited'}.` : reason ? `Refused: ${reason}.` : errorText(answer), answer.ok)
  }
  return (
    <tr data-testid="staff-row" data-email={row.email} data-scope={(row.jurisdictions ?? []).join(',')}>
      <td>{row.email}{row.disabled ? <span className="muted"> (disabled)</span> : null}</td>
      <td>{row.role}</td>
      <td>
        <fieldset className="scope-boxes">
          <legend className="visually-hidden">Jurisdictions of {row.email}</legend>
          {all.map((j) => (
            <label key={j}>
              <input type="checkbox" checked={picked.includes(j)} onChange={(e) => setPicked(e.target.checked ? [...picked, j] : picked.filter((p) => p !== j))} /> {j}
            </label>
          ))}
        </fieldset>
        <span className="muted">{picked.length === 0 ? 'not limited' : ''}</span>
      </td>
      <td>
        <button type="button" disabled={!changed} data-testid="staff-scope-save" aria-label={`Save the jurisdictions of ${row.email}`} onClick={() => void save()}>Save</button>
      </td>
    </tr>
  )
}

export function StaffScopes() {
  const [data, setData] = useState<{ staff: StaffRow[]; jurisdictions: string[] } | undefined>()
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  const load = useCallback(async () => {
    const answer = await call<{ staff: StaffRow[]; jurisdictions: string[] }>('GET', '/admin/api/staff')
    if (answer.ok) setData(answer.payload)
    else setNotice({ text: errorText(answer), ok: false })
  }, [])
  useEffect(() => void load(), [load])
  return (
    <section className="staff-scopes" aria-labelledby="staff-title" data-testid="staff-scopes">
      <h2 id="staff-title">Staff and their jurisdictions</h2>
      <p className="muted">An account limited to jurisdictions drafts, reviews, publishes and rolls back only their documents; shared documents need an account that is not limited. You cannot widen your own reach.</p>
      {notice ? <p className={notice.ok ? 'notice info' : 'notice error'} role="status" data-testid="staff-notice">{notice.text}</p> : null}
      {data ? (
        <div className="table-scroll" role="region" aria-labelledby="staff-title" tabIndex={0}>
          <table>
            <thead>
              <tr><th scope="col">Account</th><th scope="col">Role</th><th scope="col">Jurisdictions</th><th scope="col"><span className="visually-hidden">Save</span></th></tr>
            </thead>
            <tbody>
              {data.staff.map((row) => (
                <ScopeRow key={`${row.id}:${(row.jurisdictions ?? []).join(',')}`} row={row} all={data.jurisdictions} onSaved={(text, ok) => (setNotice({ text, ok }), void load())} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  )
}
