/**
 * Where SMS and e-mail go. `MessageSender` is the seam a real SMS gateway or mail provider
 * implements; the outbox simulator (simulators on) keeps every message in SQLite so the codes can
 * be read: by an admin in /admin (`GET /admin/api/outbox`, every read audited) and, in development
 * only, by anyone at `GET /dev/outbox` and by the tests at `GET /api/dev/outbox?to=`.
 * Message bodies are never logged, nor written to the audit log.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express'
import { registerMigration, type Db } from '../db/database'
import type { ServerDeps } from '../deps'
import { sendOk } from '../http/envelope'
import { validateQuery } from '../http/validate'

registerMigration(
  '401-signup-outbox',
  `CREATE TABLE signup_outbox (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
     recipient TEXT NOT NULL,
     subject TEXT NOT NULL DEFAULT '',
     body TEXT NOT NULL,
     jurisdiction TEXT NOT NULL,
     sent_at INTEGER NOT NULL
   );
   CREATE INDEX signup_outbox_recipient ON signup_outbox(recipient, id);`,
)

export interface OutgoingMessage {
  channel: 'sms' | 'email'
  /** E.164 phone number or e-mail address. */
  to: string
  subject?: string
  body: string
  jurisdiction: string
}

export interface MessageSender {
  send(message: OutgoingMessage): void | Promise<void>
}

export interface StoredMessage extends Required<OutgoingMessage> {
  id: number
  sentAt: number
}

/** The development sender: messages are stored, nothing leaves the machine. */
export class DevOutbox implements MessageSender {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  send(message: OutgoingMessage): void {
    this.db
      .prepare('INSERT INTO signup_outbox (channel, recipient, subject, body, jurisdiction, sent_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(message.channel, message.to, message.subject ?? '', message.body, message.jurisdiction, this.now())
  }

  list(to?: string, limit = 50): StoredMessage[] {
    const rows = (
      to
        ? this.db.prepare('SELECT * FROM signup_outbox WHERE recipient = ? COLLATE NOCASE ORDER BY id DESC LIMIT ?').all(to, limit)
        : this.db.prepare('SELECT * FROM signup_outbox ORDER BY id DESC LIMIT ?').all(limit)
    ) as { id: number; channel: 'sms' | 'email'; recipient: string; subject: string; body: string; jurisdiction: string; sent_at: number }[]
    return rows.map((r) => ({ id: r.id, channel: r.channel, to: r.recipient, subject: r.subject, body: r.body, jurisdiction: r.jurisdiction, sentAt: r.sent_at }))
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** `?to=`: one recipient (E.164 phone or e-mail address), or every message when absent. */
export const OUTBOX_QUERY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { to: { type: 'string', minLength: 1, maxLength: 254, pattern: '\\S' } },
} as const

const recipientOf = (req: Request) => (typeof req.query.to === 'string' ? req.query.to.trim() : undefined)

/**
 * `GET /admin/api/outbox?to=` for the admin router (mounted behind its session check): the newest
 * 100 messages; `audit` records who read which recipient's messages (never their text).
 */
export function adminOutboxRoute(deps: Pick<ServerDeps, 'db' | 'now'>, audit: (req: Request, details: { to: string | null; messages: number[] }) => void): RequestHandler[] {
  const outbox = new DevOutbox(deps.db, deps.now)
  return [
    validateQuery(OUTBOX_QUERY_SCHEMA),
    (req: Request, res: Response) => {
      const to = recipientOf(req)
      const messages = outbox.list(to, 100)
      audit(req, { to: to ?? null, messages: messages.map((m) => m.id) })
      res.setHeader('Cache-Control', 'no-store')
      sendOk(res, { messages })
    },
  ]
}

/** `/dev/outbox` (HTML) and `/api/dev/outbox?to=` (JSON); mounted only in development. */
export function createOutboxRouter(deps: ServerDeps, outbox: DevOutbox): Router {
  const router = Router()
  router.get('/api/dev/outbox', validateQuery(OUTBOX_QUERY_SCHEMA), (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { messages: outbox.list(recipientOf(req)) })
  })
  router.get('/dev/outbox', (_req: Request, res: Response) => {
    const rows = outbox
      .list(undefined, 100)
      .map(
        (m) =>
          `<tr><td>${new Date(m.sentAt).toISOString()}</td><td>${m.channel}</td><td>${escapeHtml(m.to)}</td><td>${escapeHtml(m.jurisdiction)}</td><td>${escapeHtml(m.subject)}</td><td><pre>${escapeHtml(m.body)}</pre></td></tr>`,
      )
      .join('')
    res.setHeader('Cache-Control', 'no-store')
    res
      .type('html')
      .send(
        `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Dev outbox</title></head><body><h1>Dev outbox (${deps.config.development ? 'development' : ''})</h1><p>Every SMS and e-mail the server sent, newest first.</p><table border="1" cellpadding="4"><thead><tr><th>Sent</th><th>Channel</th><th>To</th><th>Site</th><th>Subject</th><th>Body</th></tr></thead><tbody>${rows}</tbody></table></body></html>`,
      )
  })
  return router
}
