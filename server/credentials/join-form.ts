/**
 * Join form save and load (spec §7 `account/v2/joinform/save` and `/load`): a guest's sign-up
 * form in progress, kept for 7 days under a random key the browser holds, so the form survives a
 * closed tab or a switch of device by link. Passwords, secret answers, codes and personal numbers
 * are dropped before anything is stored; the key is stored as a digest.
 */
import type { Router } from 'express'
import { sha256 } from '../auth/sessions'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { validateBody } from '../http/validate'
import type { CredentialsContext } from './context'
import { JOIN_FORM_LOAD_SCHEMA, JOIN_FORM_SAVE_SCHEMA } from './schemas'
import { newToken } from './store'

export const JOIN_FORM_MS = 7 * 24 * 3_600_000
/** Fields never kept: secrets and national identity numbers. */
export const NEVER_SAVED = /password|secret|answer|token|captcha|^(verificationCode|code|cpr|fiscalCode|documentNumber|passportNumber|passportSeries|snils|inn)$/i

export function mountJoinForm(router: Router, ctx: CredentialsContext): void {
  const { deps } = ctx
  const { data } = deps

  router.post('/account/v2/joinform/save', validateBody(JOIN_FORM_SAVE_SCHEMA), async (req, res) => {
    const { form, key } = req.body as { form: Record<string, unknown>; key?: string }
    const now = deps.now()
    const { site } = siteContext(req, deps)
    const kept = Object.fromEntries(Object.entries(form).filter(([name]) => !NEVER_SAVED.test(name)))
    const existing = key ? await data.db.selectFrom('credential_join_forms').select('jurisdiction').where('key_sha256', '=', sha256(key)).where('expires_at', '>', now).executeTakeFirst() : undefined
    const useKey = existing?.jurisdiction === site.jurisdiction ? key! : newToken()
    const saved = { form: JSON.stringify(kept), saved_at: now, expires_at: now + JOIN_FORM_MS }
    await data.transaction(async (tx) => {
      await tx.deleteFrom('credential_join_forms').where('expires_at', '<=', now).execute()
      await tx
        .insertInto('credential_join_forms')
        .values({ key_sha256: sha256(useKey), jurisdiction: site.jurisdiction, ...saved })
        .onConflict((oc) => oc.column('key_sha256').doUpdateSet(saved))
        .execute()
    })
    sendOk(res, { key: useKey, savedFields: Object.keys(kept), expiresAt: new Date(now + JOIN_FORM_MS).toISOString() })
  })

  router.post('/account/v2/joinform/load', validateBody(JOIN_FORM_LOAD_SCHEMA), async (req, res) => {
    const { site } = siteContext(req, deps)
    const row = await data.db
      .selectFrom('credential_join_forms')
      .select(['jurisdiction', 'form', 'saved_at'])
      .where('key_sha256', '=', sha256((req.body as { key: string }).key))
      .where('expires_at', '>', deps.now())
      .executeTakeFirst()
    if (!row || row.jurisdiction !== site.jurisdiction) return sendError(res, 404, 'TOKEN_NOT_FOUND')
    sendOk(res, { form: JSON.parse(row.form) as Record<string, unknown>, savedAt: new Date(row.saved_at).toISOString() })
  })
}
