/**
 * A database written before the complete ledger (issue 28 item 4) is brought into line when the
 * server starts on it (server/punters/accounts.ts, q072): opening balances the seed wrote without an
 * entry get their `opening` entry first in each account's history, a withdrawable below the balance
 * becomes play-through, and a bonus account kept in the profile JSON becomes a row with its grant.
 * The old state is made from a fresh one by taking away what q072 added, as an older server left it.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { verifyLedger } from '../../../server/punters/ledger-verify'
import { startTestServer, type TestServer } from '../../support/server'

const NOW = Date.UTC(2026, 0, 15, 12)

/** What an older server left: no opening entries, no ledger accounts, bonus accounts in the profile, one bet debited the old way. */
async function makeOld(server: TestServer): Promise<void> {
  const db = server.deps.data.db
  const opened = await db.selectFrom('punters').select(['id', 'profile']).where('email', '=', 'opened@demo.parlay.test').executeTakeFirstOrThrow()
  await db.deleteFrom('ledger_entries').where('kind', '=', 'opening').execute()
  // the old ledger: a stake's entry with the balance after it, counted from the unrecorded opening 150.00
  await db.insertInto('ledger_entries').values({ punter_id: opened.id, account: 'real', reference: 'bet:old-1', kind: 'bet', amount_minor: -1_000, balance_after_minor: 14_000, created_at: NOW }).execute()
  await db.updateTable('punters').set({ balance_minor: 14_000, withdrawable_minor: 14_000 }).where('id', '=', opened.id).execute()
  const zero = await db.selectFrom('punters').select(['id', 'profile']).where('email', '=', 'zero@demo.parlay.test').executeTakeFirstOrThrow()
  const profile = JSON.parse(zero.profile)
  profile.bonus = { ...profile.bonus, accounts: [{ product: 'casino', amount: 25, currentStep: 1, turnover: 5, requiredTurnover: 750 }] }
  await db.updateTable('punters').set({ profile: JSON.stringify(profile) }).where('id', '=', zero.id).execute()
  await db.schema.dropIndex('bonus_accounts_open').execute()
  await db.schema.dropTable('bonus_accounts').execute()
  await db.schema.dropIndex('ledger_entries_account').execute()
  await db.schema.alterTable('ledger_entries').dropColumn('account').execute()
  await db.schema.alterTable('punters').dropColumn('playthrough_minor').execute()
  await db.deleteFrom('migrations').where('name', '=', 'q084-ledger-accounts').execute()
}

describe('a database from before the complete ledger', () => {
  it('gets its opening entries, play-through and bonus accounts when the server starts on it, and then agrees with ledger:verify', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'parlay-backfill-')), 'data')
    const old = await startTestServer({ now: () => NOW, dataDir, ledgerCheck: false })
    await makeOld(old)
    await old.dispose()

    const server = await startTestServer({ now: () => NOW, dataDir })
    try {
      const db = server.deps.data.db
      expect(await verifyLedger(db)).toMatchObject({ ok: true })
      const opened = await db.selectFrom('punters').select(['id', 'balance_minor', 'withdrawable_minor']).where('email', '=', 'opened@demo.parlay.test').executeTakeFirstOrThrow()
      const history = await db.selectFrom('ledger_entries').select(['reference', 'amount_minor', 'balance_after_minor']).where('punter_id', '=', opened.id).orderBy('id').execute()
      expect(history).toEqual([
        { reference: `opening:${opened.id}`, amount_minor: 15_000, balance_after_minor: 15_000 },
        { reference: 'bet:old-1', amount_minor: -1_000, balance_after_minor: 14_000 },
      ])
      const vip = await db.selectFrom('punters').select(['balance_minor', 'withdrawable_minor', 'playthrough_minor']).where('email', '=', 'vip@demo.parlay.test').executeTakeFirstOrThrow()
      expect(vip).toEqual({ balance_minor: 2_500_000, withdrawable_minor: 2_000_000, playthrough_minor: 500_000 })
      const zero = await db.selectFrom('punters').select(['id', 'profile']).where('email', '=', 'zero@demo.parlay.test').executeTakeFirstOrThrow()
      expect(await db.selectFrom('bonus_accounts').select(['product', 'status', 'balance_minor', 'turnover_minor', 'required_turnover_minor']).where('punter_id', '=', zero.id).execute()).toEqual([
        { product: 'casino', status: 'active', balance_minor: 2_500, turnover_minor: 500, required_turnover_minor: 75_000 },
      ])
      expect(JSON.parse(zero.profile).bonus.accounts).toBeUndefined()
      // one opening of real money per punter that held any (an empty one needs none), no more
      const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(db)).rows[0]!.n)
      expect(await count(sql<{ n: number }>`select count(*) as n from ledger_entries where kind = 'opening' and account = 'real'`)).toBe(await count(sql<{ n: number }>`select count(*) as n from punters where balance_minor > 0`))
    } finally {
      await server.dispose()
    }
  }, 90_000) // two server starts
})
