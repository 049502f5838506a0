/**
 * The outbox (what /admin's Outbox page did): SMS codes and e-mail links the sign-up sent through
 * the simulators, for one recipient or all, newest first. Every read is audited by the server. A
 * link in a message is clickable only when it points at this server's own sites.
 */
import { useCallback, useEffect, useState } from 'react'
import { call } from './api'
import { useFocusOnOpen } from './a11y'
import { refusalText } from './refusals'

interface Message { sentAt: number; channel: string; to: string; jurisdiction: string; subject: string | null; body: string }

function ownLink(word: string, i: number) {
  let url: URL
  try {
    url = new URL(word)
  } catch {
    return word
  }
  const own = url.hostname === location.hostname || url.hostname.endsWith(`.${location.hostname}`)
  return own && (url.protocol === 'http:' || url.protocol === 'https:') ? <a key={i} href={url.href} target="_blank" rel="noopener noreferrer">{word}</a> : word
}

export function Outbox() {
  const [to, setTo] = useState('')
  const [messages, setMessages] = useState<Message[] | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const heading = useFocusOnOpen<HTMLHeadingElement>()
  const load = useCallback(async (recipient: string) => {
    const answer = await call<{ messages: Message[] }>('GET', `/admin/api/outbox${recipient ? `?to=${encodeURIComponent(recipient)}` : ''}`)
    if (!answer.ok) return setProblem(refusalText(answer))
    setProblem(undefined)
    setMessages(answer.payload.messages)
  }, [])
  useEffect(() => void load(''), [load])
  return (
    <section className="editor" aria-labelledby="outbox-title">
      <h1 id="outbox-title" tabIndex={-1} ref={heading}>Outbox</h1>
      <p>SMS codes and e-mail links the sign-up sent through the simulators. Every time this list is shown, who read it and for which recipient goes into the audit log.</p>
      <form className="outbox-filter" onSubmit={(e) => (e.preventDefault(), void load(to.trim()))}>
        <label>Recipient <input type="search" value={to} maxLength={254} placeholder="Phone (+…) or e-mail; empty for all" data-testid="outbox-to" onChange={(e) => setTo(e.target.value)} /></label>{' '}
        <button type="submit" data-testid="outbox-show">Show</button>
      </form>
      {problem ? <p className="error" role="alert">{problem}</p> : null}
      <p className="muted" role="status">
        {messages === undefined ? '' : messages.length === 0 ? 'No messages. Sign-up sends them only while the simulators are on (PARLAY_SIMULATORS=on or npm run dev).' : `${messages.length} message(s), newest first. This read is in the audit log.`}
      </p>
      <div className="table-scroll" role="region" aria-labelledby="outbox-title" tabIndex={0}>
        <table data-testid="outbox-messages">
          <thead><tr><th scope="col">Sent</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Site</th><th scope="col">Subject</th><th scope="col">Text</th></tr></thead>
          <tbody>
            {(messages ?? []).map((m, i) => (
              <tr key={i} data-testid="outbox-message">
                <td>{new Date(m.sentAt).toISOString().replace('T', ' ').slice(0, 19)}</td><td>{m.channel}</td><td>{m.to}</td><td>{m.jurisdiction}</td><td>{m.subject}</td>
                <td><pre className="message">{m.body.split(/(\s+)/).map(ownLink)}</pre></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
