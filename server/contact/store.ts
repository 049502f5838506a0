/**
 * Contact-us messages (issue 34 item 3): what a punter or guest wrote through the contact form,
 * kept so support can answer it. Each message has a reference the punter is shown ("C-7K3QX9M2")
 * and quotes when writing again; it is random, not the row id, so it says nothing about how many
 * messages others sent. The punter is the session's (null for a guest), never a body's claim.
 * On the query layer: one table on SQLite and PostgreSQL.
 */
import { randomInt } from 'node:crypto'
import type { Generated, Kysely } from 'kysely'
import { schemaStep, surrogateKey, surrogateKeyType } from '../db/schema'
import type { Tables } from '../db/tables'

export const CONTACT_TOPICS = ['account', 'payments', 'betting', 'casino', 'other'] as const
export type ContactTopic = (typeof CONTACT_TOPICS)[number]

declare module '../db/tables' {
  interface Tables {
    contact_messages: {
      id: Generated<number>
      reference: string
      punter_id: number | null
      jurisdiction: string
      locale: string
      name: string
      email: string
      topic: string
      message: string
      created_at: number
    }
  }
}

export const q095ContactMessages = schemaStep('q095-contact-messages', async (db, engine) => {
  await db.schema
    .createTable('contact_messages')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('punter_id', 'bigint')
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('contact_messages_created').ifNotExists().on('contact_messages').columns(['created_at', 'id']).execute()
})

export interface NewContactMessage {
  punterId: number | null
  jurisdiction: string
  locale: string
  name: string
  email: string
  topic: ContactTopic
  message: string
}

export interface ContactMessage extends NewContactMessage {
  id: number
  reference: string
  createdAt: number
}

/** No 0/O, 1/I/L: a reference read out on the phone is not mistaken. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'
export const REFERENCE_PATTERN = /^C-[2-9A-HJKMNP-Z]{8}$/

export function newReference(): string {
  let text = 'C-'
  for (let i = 0; i < 8; i++) text += ALPHABET[randomInt(ALPHABET.length)]
  return text
}

/** Stores a message under a fresh reference (a second draw if the first was taken: 31^8 makes it rare). */
export async function storeContactMessage(db: Kysely<Tables>, message: NewContactMessage, now: number): Promise<ContactMessage> {
  for (let attempt = 0; ; attempt++) {
    const reference = newReference()
    const taken = await db.selectFrom('contact_messages').select('id').where('reference', '=', reference).executeTakeFirst()
    if (taken && attempt < 3) continue
    const row = await db
      .insertInto('contact_messages')
      .values({ reference, punter_id: message.punterId, jurisdiction: message.jurisdiction, locale: message.locale, name: message.name, email: message.email, topic: message.topic, message: message.message, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    return { ...message, id: Number(row.id), reference, createdAt: now }
  }
}

/** The newest messages first. */
export async function listContactMessages(db: Kysely<Tables>, limit: number): Promise<ContactMessage[]> {
  const rows = await db.selectFrom('contact_messages').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
  return rows.map((r) => ({
    id: Number(r.id),
    reference: r.reference,
    punterId: r.punter_id === null ? null : Number(r.punter_id),
    jurisdiction: r.jurisdiction,
    locale: r.locale,
    name: r.name,
    email: r.email,
    topic: r.topic as ContactTopic,
    message: r.message,
    createdAt: Number(r.created_at),
  }))
}
