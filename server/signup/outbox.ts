/**
 * Where SMS and e-mail go. `MessageSender` is the seam a real SMS gateway or mail provider
 * implements; the outbox simulator (simulators on) keeps every message in SQLite so the codes can
 * be read: by an admin in /admin (`GET /admin/api/outbox`, every read audited) and, in development
 * only, by anyone at `GET /dev/outbox` and by the tests at `GET /api/dev/outbox?to=`.
 * Message bodies are never logged, nor written to the audit log.
 * On the query layer (issue 16): the messages of every instance in one outbox, SQLite or PostgreSQL.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express'
import { sql, type Generated } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory, surrogateKey, surrogateKeyType } from '../db/schema'
import type { ServerDeps } from '../deps'
import { sendOk } from '../http/envelope'
import { validateQuery } from '../http/validate'

export const sqlite401SignupOutbox = sqliteHistory(
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

const CHANNELS = ['sms', 'email'] as const
/** Since q097: codes by Telegram's gateway too (issue 34 item 5, code channel TG_GATEWAY). */
export const OUTBOX_CHANNELS = ['sms', 'email', 'telegram'] as const
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number]

declare module '../db/tables' {
  interface Tables {
    signup_outbox: { id: Generated<number>; channel: OutboxChannel; recipient: string; subject: string; body: string; jurisdiction: string; sent_at: number }
  }
}

export const q013SignupOutbox = schemaStep('q013-signup-outbox', async (db, engine) => {
  await db.schema
    .createTable('signup_outbox')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('channel', 'text', (c) => c.notNull().check(oneOf('channel', CHANNELS)))
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('signup_outbox_recipient').ifNotExists().on('signup_outbox').columns(['recipient', 'id']).execute()
})

/**
 * The outbox's channel CHECK gains 'telegram'. PostgreSQL swaps the constraint; SQLite cannot alter
 * one, so the table is rebuilt with every row and id kept (its AUTOINCREMENT counter too).
 */
export const q097OutboxTelegram = schemaStep('q097-outbox-telegram', async (db, engine) => {
  if (engine === 'postgres') {
    await sql`ALTER TABLE signup_outbox DROP CONSTRAINT IF EXISTS signup_outbox_channel_check`.execute(db)
    await sql`ALTER TABLE signup_outbox ADD CONSTRAINT signup_outbox_channel_check CHECK (${oneOf('channel', OUTBOX_CHANNELS)})`.execute(db)
    return
  }
  await sql`CREATE TABLE signup_outbox_q097 (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     channel TEXT NOT NULL CHECK (${oneOf('channel', OUTBOX_CHANNELS)}),
     recipient TEXT NOT NULL,
     subject TEXT NOT NULL DEFAULT '',
     body TEXT NOT NULL,
     jurisdiction TEXT NOT NULL,
     sent_at INTEGER NOT NULL
   )`.execute(db)
  await sql`INSERT INTO signup_outbox_q097 (id, channel, recipient, subject, body, jurisdiction, sent_at) SELECT id, channel, recipient, subject, body, jurisdiction, sent_at FROM signup_outbox`.execute(db)
  await sql`DROP TABLE signup_outbox`.execute(db)
  await sql`ALTER TABLE signup_outbox_q097 RENAME TO signup_outbox`.execute(db)
  await sql`CREATE INDEX IF NOT EXISTS signup_outbox_recipient ON signup_outbox(recipient, id)`.execute(db)
})

export interface OutgoingMessage {
  channel: OutboxChannel
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
    private readonly data: DataLayer,
    private readonly now: () => number,
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    await this.data.db
      .insertInto('signup_outbox')
      .values({ channel: message.channel, recipient: message.to, subject: message.subject ?? '', body: message.body, jurisdiction: message.jurisdiction, sent_at: this.now() })
      .execute()
  }

  /** The newest messages first; `to` matched without regard to (ASCII) case, as addresses are. */
  async list(to?: string, limit = 50): Promise<StoredMessage[]> {
    let query = this.data.db.selectFrom('signup_outbox').selectAll().orderBy('id', 'desc').limit(limit)
    if (to) query = query.where((eb) => eb(eb.fn('lower', ['recipient']), '=', asciiLower(to)))
    const rows = await query.execute()
    return rows.map((r) => ({ id: Number(r.id), channel: r.channel, to: r.recipient, subject: r.subject, body: r.body, jurisdiction: r.jurisdiction, sentAt: r.sent_at }))
  }
}

/** SQLite's lower() (and NOCASE) fold ASCII letters only; the same on both engines' side of the comparison. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase())

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
 * 100 messages; `audit` records who read which recipient's messages (never their text), before
 * the answer: a failed append rejects, and the messages are not sent.
 */
export function adminOutboxRoute(deps: Pick<ServerDeps, 'data' | 'now'>, audit: (req: Request, details: { to: string | null; messages: number[] }) => Promise<void>): RequestHandler[] {
  const outbox = new DevOutbox(deps.data, deps.now)
  return [
    validateQuery(OUTBOX_QUERY_SCHEMA),
    async (req: Request, res: Response) => {
      const to = recipientOf(req)
      const messages = await outbox.list(to, 100)
      await audit(req, { to: to ?? null, messages: messages.map((m) => m.id) })
      res.setHeader('Cache-Control', 'no-store')
      sendOk(res, { messages })
    },
  ]
}

/** `/dev/outbox` (HTML) and `/api/dev/outbox?to=` (JSON); mounted only in development. */
export function createOutboxRouter(deps: ServerDeps, outbox: DevOutbox): Router {
  const router = Router()
  router.get('/api/dev/outbox', validateQuery(OUTBOX_QUERY_SCHEMA), async (req: Request, res: Response) => {
    const messages = await outbox.list(recipientOf(req))
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { messages })
  })
  router.get('/dev/outbox', async (_req: Request, res: Response) => {
    const rows = (await outbox.list(undefined, 100))
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
