/**
 * Where SMS and e-mail go. `MessageSender` is the seam a real SMS gateway or mail provider
 * implements; the development implementation keeps every message in SQLite so a developer (the
 * `GET /dev/outbox` page) and the tests (`GET /api/dev/outbox?to=`) can read the codes.
 * Both routes exist only in development; message bodies are never logged.
 */
import { Router, type Request, type Response } from 'express'
import { registerMigration, type Db } from '../db/database'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'

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

/** `/dev/outbox` (HTML) and `/api/dev/outbox?to=` (JSON); mounted only in development. */
export function createOutboxRouter(deps: ServerDeps, outbox: DevOutbox): Router {
  const router = Router()
  router.get('/api/dev/outbox', (req: Request, res: Response) => {
    const to = typeof req.query.to === 'string' ? req.query.to.trim() : undefined
    if (to !== undefined && (to.length === 0 || to.length > 254)) return sendError(res, 400, 'ValidationError', { field: 'to', code: 'invalid' })
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { messages: outbox.list(to) })
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
