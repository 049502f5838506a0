/**
 * Staff accounts from the command line (issue 30), on the database `npm start` uses (SQLite under
 * PARLAY_DATA_DIR, or DATABASE_URL=postgres://… with the instances' PARLAY_AUDIT_KEY):
 *
 *   npm run admin:create                       asks for e-mail, name, role and password (hidden);
 *                                              or, for automation, takes PARLAY_ADMIN_EMAIL,
 *                                              PARLAY_ADMIN_ROLE, PARLAY_ADMIN_PASSWORD (and _NAME)
 *   npm run admin:disable -- <e-mail>          no sign-in; every session of it ends at once
 *   npm run admin -- enable <e-mail>
 *   npm run admin -- reset-two-factor <e-mail> a lost authenticator: the next sign-in enrols anew
 *   npm run admin -- list
 *   npm run admin -- scope <e-mail> [spain,italy]  limits the account to these jurisdictions' documents;
 *                                              no list: unscoped again (server/admin/scope.ts)
 *
 * Every change is an entry of the audit log, by `cli:<user>@<host>`. Exit 0 done, 1 refused, 2 the
 * database or the audit key cannot be opened.
 */
import { createInterface } from 'node:readline'
import { Writable } from 'node:stream'
import { hostname, userInfo } from 'node:os'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ADMIN_ROLES, type AdminRole } from '../server/admin/accounts'
import { adminByEmail, createAdmin, disableAdmin, enableAdmin, MIN_PASSWORD, normalizeScope, resetSecondFactor, setStaffScope, type NewAdmin } from '../server/admin/staff'
import type { DataLayer } from '../server/db/data-layer'
import { audit } from '../server/store/audit'
import { openAuditLogForTool } from '../server/store/audit-open'
import { openToolDatabase } from './open-database'

const actor = () => `cli:${userInfo().username}@${hostname()}`

class Refused extends Error {}

/** Questions on the terminal, the password ones without echo; piped answers are read line by line. */
function prompter(input: NodeJS.ReadableStream, output: NodeJS.WritableStream) {
  let muted = false
  const sink = new Writable({ write: (chunk, _enc, done) => (muted ? done() : output.write(chunk, done)) })
  const rl = createInterface({ input, output: sink, terminal: (input as { isTTY?: boolean }).isTTY === true })
  const lines = rl[Symbol.asyncIterator]()
  return {
    async ask(question: string, hidden = false): Promise<string> {
      output.write(question)
      muted = hidden
      const next = await lines.next()
      muted = false
      if (hidden) output.write('\n')
      if (next.done) throw new Refused('no answer (input ended)')
      return String(next.value).trim()
    },
    close: () => rl.close(),
  }
}

/** The new admin from PARLAY_ADMIN_* (automation), else asked for. */
async function newAdminFrom(env: NodeJS.ProcessEnv, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<NewAdmin> {
  if (env.PARLAY_ADMIN_EMAIL) {
    const { PARLAY_ADMIN_EMAIL: email, PARLAY_ADMIN_ROLE: role, PARLAY_ADMIN_PASSWORD: password, PARLAY_ADMIN_NAME: name } = env
    if (!role || !password) throw new Refused('PARLAY_ADMIN_EMAIL needs PARLAY_ADMIN_ROLE and PARLAY_ADMIN_PASSWORD too')
    return { email, role: role as AdminRole, password, name: name ?? email }
  }
  const prompt = prompter(input, output)
  try {
    const email = await prompt.ask('E-mail: ')
    const name = (await prompt.ask('Name (shown in the admin): ')) || email
    const role = (await prompt.ask(`Role (${ADMIN_ROLES.join(', ')}): `)) as AdminRole
    const password = await prompt.ask(`Password (at least ${MIN_PASSWORD} characters, not shown): `, true)
    if ((await prompt.ask('Password again: ', true)) !== password) throw new Refused('the two passwords differ')
    return { email, name, role, password }
  } finally {
    prompt.close()
  }
}

const PROBLEMS: Record<string, string> = {
  email: 'that is not an e-mail address',
  role: `the role must be one of ${ADMIN_ROLES.join(', ')}`,
  exists: 'an admin with that e-mail exists already',
  'too-short': `the password needs at least ${MIN_PASSWORD} characters`,
  'too-long': 'the password may have at most 128 characters',
  published: 'that password is published (a demo password)',
}

async function create(data: DataLayer, env: NodeJS.ProcessEnv, io: Io): Promise<string> {
  const admin = await newAdminFrom(env, io.input, io.output)
  const created = await createAdmin(data, admin, Date.now())
  if (!created.ok) throw new Refused(PROBLEMS[created.problem])
  await audit(data, Date.now(), actor(), 'admin.created', 'admin', { email: admin.email.trim(), role: admin.role, via: 'admin:create' })
  return `Created ${admin.role} ${admin.email.trim()}. At the first sign-in at /admin they set up two-factor sign-in with an authenticator app.`
}

async function change(data: DataLayer, command: string, email: string | undefined, list?: string): Promise<string> {
  const admin = email ? await adminByEmail(data, email) : undefined
  if (!admin) throw new Refused(`no admin ${email ?? '(give an e-mail)'}`)
  const now = Date.now()
  if (command === 'scope') {
    const jurisdictions = normalizeScope((list ?? '').split(','))
    if (jurisdictions?.some((j) => !/^[a-z][a-z0-9-]{0,39}$/.test(j))) throw new Refused('jurisdictions are ids such as spain,italy')
    await setStaffScope(data, admin.id, jurisdictions)
    await audit(data, now, actor(), 'admin.scope-changed', 'admin', { email: admin.email, jurisdictions })
    return jurisdictions ? `${admin.email} may now change only the documents of ${jurisdictions.join(', ')}.` : `${admin.email} is no longer limited to jurisdictions.`
  }
  if (command === 'disable') {
    const ended = await disableAdmin(data, admin.id, now)
    await audit(data, now, actor(), 'admin.disabled', 'admin', { email: admin.email, sessionsEnded: ended })
    return `Disabled ${admin.email}; ${ended} session(s) ended.`
  }
  if (command === 'enable') {
    await enableAdmin(data, admin.id)
    await audit(data, now, actor(), 'admin.enabled', 'admin', { email: admin.email })
    return `Enabled ${admin.email}.`
  }
  const ended = await resetSecondFactor(data, admin.id)
  await audit(data, now, actor(), 'admin.two-factor-reset', 'admin', { email: admin.email, sessionsEnded: ended })
  return `Two-factor sign-in of ${admin.email} cleared; ${ended} session(s) ended. Their next sign-in sets up a new authenticator.`
}

async function list(data: DataLayer): Promise<string> {
  const rows = await data.db.selectFrom('admin_users').select(['email', 'role', 'disabled_at', 'totp_secret', 'demo']).orderBy('id').execute()
  return rows.map((r) => `${r.email}\t${r.role}\t${r.disabled_at === null ? 'enabled' : 'disabled'}\t${r.totp_secret ? 'two-factor set up' : 'two-factor at first sign-in'}${r.demo === 1 ? '\tdemo' : ''}`).join('\n')
}

interface Io {
  input: NodeJS.ReadableStream
  output: NodeJS.WritableStream
}

/** Runs one command; answers the exit code. */
export async function runAdminCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [command, email, jurisdictionList] = argv
  if (!['create', 'disable', 'enable', 'reset-two-factor', 'list', 'scope'].includes(command ?? '')) {
    io.output.write('usage: admin create | disable <e-mail> | enable <e-mail> | reset-two-factor <e-mail> | scope <e-mail> [jurisdiction,…] | list\n')
    return 1
  }
  let database
  try {
    database = await openToolDatabase(env)
    if (command !== 'list') await openAuditLogForTool(database.data, database.dataDir, Date.now())
  } catch (error) {
    await database?.close()
    io.output.write(`admin: cannot open the database or its audit log: ${(error as Error).message}\n`)
    return 2
  }
  try {
    const data = database.data
    const said = command === 'create' ? await create(data, env, io) : command === 'list' ? await list(data) : await change(data, command!, email, jurisdictionList)
    io.output.write(said + '\n')
    return 0
  } catch (error) {
    if (!(error instanceof Refused)) throw error
    io.output.write(`admin ${command}: refused: ${error.message}\n`)
    return 1
  } finally {
    await database.close()
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) process.exitCode = await runAdminCommand(process.argv.slice(2), process.env, { input: process.stdin, output: process.stdout })
