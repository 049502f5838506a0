/**
 * The e-mail variants (spec §4): the punter is created unconfirmed and a confirmation link is
 * mailed (nothing half-registered when the mail fails); the mail again on request; the link's
 * registration token confirms the address and logs the punter in.
 */
import type { Request, Response, Router } from 'express'
import { consumeConfirmationToken, dropConfirmationTokens, issueConfirmationToken } from '../auth/router'
import { sendOk } from '../http/envelope'
import { busOf } from '../bus'
import { siteContext } from '../http/site'
import { lowerIs, movePunterStatus } from '../punters/repository'
import { REGISTRATION_TOKEN_SCHEMA, SEND_CONFIRMATION_MAIL_SCHEMA, type SignupKit, type Variant } from './kit'
import type { SignupPreparation } from './prepare'
import { insertSignupPunter, punterById, sendLoggedIn } from './punters'
import { VERIFICATION_LIMITS } from './verification'
import { composeForPunter, composeForRequest, parseSettings } from './message-texts'

/** The site's account of this address whose e-mail is not confirmed yet, if any (case-insensitive). */
function unconfirmedAccount(deps: SignupKit['deps'], login: string, jurisdiction: string) {
  return deps.data.db
    .selectFrom('punters')
    .select(['id', 'settings', 'signup_locale'])
    .where(lowerIs('email', login))
    .where('jurisdiction', '=', jurisdiction)
    .where('email_confirmed', '=', 0)
    .executeTakeFirst()
}

/** Mounts the confirmation-mail and registration-token calls; gives the sign-up handler of a variant. */
export function emailRoutes(router: Router, kit: SignupKit, preparation: SignupPreparation) {
  const { deps, fail, failFields, blocked, send, strictBody } = kit
  const { log } = deps
  const { prepare, withPasswordHash } = preparation

  const confirmationLink = (req: Request, token: string) => `${req.protocol}://${req.get('host')}/join/confirm-email?token=${encodeURIComponent(token)}`

  /** Takes back a sign-up's punter (its confirmation could not be stored or mailed). */
  const dropPunter = async (punterId: number) => {
    await deps.data.db.deleteFrom('punters').where('id', '=', punterId).execute()
  }

  function emailSignup(variant: Variant) {
    return async (req: Request, res: Response) => {
      const prepared = await prepare(req, res, variant)
      if (!prepared) return
      const email = prepared.punter.email
      if (!email) return failFields(res, [{ field: 'email', code: 'required' }])
      const now = deps.now()
      const input = { ...(await withPasswordHash(prepared)), emailConfirmed: false }
      const created = await insertSignupPunter(deps.data, input, now)
      if (!created.ok) return fail(res, created.code)
      // the token lives on the query layer (another database on PostgreSQL): no shared
      // transaction, so a punter whose token could not be stored is taken back at once
      const token = await issueConfirmationToken(deps.data, created.value.id, 'email', now).catch(async (error: unknown) => {
        await dropPunter(created.value.id)
        throw error
      })
      const mail = composeForRequest(deps, req, 'signupConfirmEmail', { link: confirmationLink(req, token) })
      const sent = await send('email', email, mail.body, input.jurisdiction, mail.subject)
      if (!sent) {
        // Nothing half-registered: without the mail the punter could never confirm.
        // the tokens first: on SQLite they still hold a foreign key to the punter
        await dropConfirmationTokens(deps.data, created.value.id)
        await dropPunter(created.value.id)
        return fail(res, 'VERIFICATION_ERROR')
      }
      log.info('signup.email.created', { variant, jurisdiction: input.jurisdiction, punterId: created.value.id })
      sendOk(res, { status: 'OK', needEmailConfirmation: true, email })
    }
  }

  // one cooldown per address on every instance (the bus); fails closed while Redis is away
  const bus = busOf(deps)
  router.post('/account/signup/send-confirmation-mail', strictBody(SEND_CONFIRMATION_MAIL_SCHEMA), async (req, res) => {
    const login = (req.body as { login: string }).login.trim().toLowerCase()
    const now = deps.now()
    // The cooldown applies whether or not the address has an account: the answer reveals nothing.
    const heldMs = await bus.claim(`confirmation-mail:${login}`, VERIFICATION_LIMITS.resendCooldownMs).catch(() => undefined)
    if (heldMs === undefined) return res.status(503).json({ status: 'ERROR', errorCode: 'SERVICE_UNAVAILABLE' })
    if (heldMs > 0) return blocked(res, { code: 'TEMPORARY_BLOCKED', nextAllowedAt: now + heldMs })
    const { site } = siteContext(req, deps)
    const row = await unconfirmedAccount(deps, login, site.jurisdiction)
    if (row) {
      const token = await issueConfirmationToken(deps.data, row.id, 'email', now)
      // the account exists: its saved language, else the page's
      const mail = composeForPunter(deps, req, { settings: parseSettings(row.settings), signupLocale: row.signup_locale }, 'confirmEmailAgain', { link: confirmationLink(req, token) })
      await send('email', login, mail.body, site.jurisdiction, mail.subject)
    }
    sendOk(res, { status: 'OK' })
  })

  // Registration by registration token (spec §4): confirms the e-mail and logs the punter in.
  const loginByRegistrationToken = async (req: Request, res: Response) => {
    const body = req.body as { token: string }
    const now = deps.now()
    const punterId = await consumeConfirmationToken(deps.data, body.token, 'email', now)
    const punter = punterId === undefined ? undefined : await punterById(deps.data, punterId)
    const { site } = siteContext(req, deps)
    if (!punter || punter.jurisdiction !== site.jurisdiction) return fail(res, 'TOKEN_NOT_FOUND')
    await deps.data.db.updateTable('punters').set({ email_confirmed: 1, updated_at: now }).where('id', '=', punter.id).execute()
    if (punter.state === 'PROCESSING') await movePunterStatus(deps.data, punter.id, 'OPENED', now)
    log.info('signup.email.confirmed', { punterId: punter.id })
    await sendLoggedIn(deps, res, (await punterById(deps.data, punter.id))!, now)
  }
  router.post('/auth/v2/login-by-registration-token', strictBody(REGISTRATION_TOKEN_SCHEMA), loginByRegistrationToken)
  router.post('/account/join/confirm-email', strictBody(REGISTRATION_TOKEN_SCHEMA), loginByRegistrationToken)

  return { emailSignup }
}
