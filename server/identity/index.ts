/**
 * Identity calls under the mobile gate (spec §7 "Identity service", MitID calls) and the local
 * simulators' pages:
 *
 *   GET  punter/cps/one/info                                   the punter's identification state
 *   POST punter/cps/one/identify-punter/simplified             {lastName, firstName, …, passport}
 *   POST punter/cps/one/identify-punter/simplified/with-verification
 *   POST punter/cps/one/identify-punter/continue
 *   POST punter/cps/one/identify-punter/esia/full
 *   GET  account/mitId/params?askCpr=true|false                {askCpr, redirectUrl, authorizationUrl}
 *   POST auth/mitId/login {authorizationCode, state}           login, NEED_CPR_REQUEST, PUNTER_NOT_LINKED_…
 *   GET  punter/cps/agreement-data                             what the punter agrees to before identifying
 *   POST verification/start-punter-auto-verification           {link, autoVerificationState}
 *   PUT  nickname {nickname}                                   sets the nickname (./nickname.ts)
 *   POST punter/documents/upload (multipart: document, documentType)   document upload
 *   GET|POST /dev/mitid/authorize                              the MitID simulator's page (simulators on)
 *   GET|POST /dev/identity/esia, /dev/identity/auto-verification   the portals' simulator pages (./portal.ts)
 *
 * The simulators (MitID, the Russian identity service) are used only when `config.simulators` is
 * on; otherwise, without a real provider passed in, their calls answer 503 SERVICE_UNAVAILABLE.
 */
import express, { Router, type Request, type Response } from 'express'
import multer from 'multer'
import { GATEWAY, type ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { jurisdictionOf } from '../dictionary'
import { siteContext } from '../http/site'
import { validateBody, noBody } from '../http/validate'
import { punterIdByProfileValue, setProfileFields } from '../punters/lookups'
import type { Punter } from '../punters/repository'
import { punterById, requirePunter, sendLoggedIn } from '../signup/punters'
import { isIdentified, NO_IDENTITY, simulatedNationalIdentity, type IdentityData, type IdentityRecord, type NationalIdentityProvider } from './cps'
import { createSimulatedMitId, linkMitId, mitIdLinkOf, type MitIdBroker } from './mitid'
import { SET_NICKNAME_SCHEMA, setNicknameHandler } from './nickname'
import { autoVerificationOf, createPortalSimulatorPages, newState, rememberEsiaState, startAutoVerification } from './portal'
import { DOCUMENT_TYPES, sniffType, storeDocument, UPLOAD_LIMITS } from './upload'

const IDENTITY_SCHEMA = {
  type: 'object',
  required: ['lastName', 'firstName', 'birthDay', 'passportSeries', 'passportNumber', 'passportIssueDate'],
  additionalProperties: false,
  properties: {
    lastName: { type: 'string', minLength: 1, maxLength: 60 },
    firstName: { type: 'string', minLength: 1, maxLength: 60 },
    middleName: { type: 'string', maxLength: 60 },
    birthDay: { type: 'string', format: 'date' },
    passportSeries: { type: 'string', pattern: '^\\d{4}$' },
    passportNumber: { type: 'string', pattern: '^\\d{6}$' },
    passportIssueDate: { type: 'string', format: 'date' },
    inn: { type: 'string', pattern: '^\\d{12}$' },
    snils: { type: 'string', pattern: '^\\d{11}$' },
  },
} as const

const MITID_LOGIN_SCHEMA = {
  type: 'object',
  required: ['authorizationCode', 'state'],
  additionalProperties: false,
  properties: { authorizationCode: { type: 'string', minLength: 1, maxLength: 200 }, state: { type: 'string', minLength: 1, maxLength: 200 } },
} as const

export interface IdentityServices {
  national?: NationalIdentityProvider
  mitId?: MitIdBroker
  /** The online auto-verification service: the link the punter is sent to for a state. */
  autoVerificationLink?: (state: string) => string
}

/**
 * What the punter agrees to before identifying (GET punter/cps/agreement-data; payload not shown
 * in the spec): which personal data goes to the national identification service, and why.
 */
export const IDENTIFICATION_AGREEMENT = {
  version: '2026-01',
  processor: 'TSUPIS',
  purpose: 'identification',
  personalData: ['lastName', 'firstName', 'middleName', 'birthDay', 'passportSeries', 'passportNumber', 'passportIssueDate', 'inn', 'snils'],
  documentPath: '/info/privacy',
} as const

const identityOf = (punter: Punter): IdentityRecord => ({ ...NO_IDENTITY, ...((punter.profile as { identity?: IdentityRecord }).identity ?? {}), result: (punter.identityState as IdentityRecord['result']) || 'none' })

/** The spec's response shape: baseResult.status, cupisOneInfo, identificationLink. */
const cpsAnswer = (record: IdentityRecord, identificationLink: string | null = null) => ({
  baseResult: { status: record.error ? 'ERROR' : 'OK', errorCode: record.error },
  cupisOneInfo: { ...record, identified: isIdentified(record) },
  identificationLink,
})

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function createIdentityRouter(deps: ServerDeps, services: IdentityServices = {}): Router {
  const router = Router()
  const gate = Router()
  const { db, log } = deps
  const simulators = deps.config.simulators
  const national = services.national ?? (simulators ? simulatedNationalIdentity : undefined)
  const mitIdService = services.mitId ?? (simulators ? createSimulatedMitId(deps.data) : undefined)
  const autoVerificationLink = services.autoVerificationLink ?? (simulators ? (state: string) => `/dev/identity/auto-verification?state=${encodeURIComponent(state)}` : undefined)
  const unavailable = (res: Response) => sendError(res, 503, 'SERVICE_UNAVAILABLE')
  const auth = requirePunter(deps)

  const save = async (punterId: number, record: IdentityRecord) => {
    await setProfileFields(deps.data, punterId, deps.now(), { identity: record }, { identity_state: record.result })
    log.info('identity.updated', { punterId, result: record.result, level: record.level, lockReason: record.lockReason })
  }
  const nationalServiceOnly = (req: Request, res: Response) => {
    if (!national) {
      unavailable(res)
      return false
    }
    if (jurisdictionOf(deps, req).identification?.nationalService !== true) {
      sendError(res, 403, 'FORBIDDEN')
      return false
    }
    return true
  }

  gate.get('/punter/cps/one/info', auth, (_req, res) => sendOk(res, cpsAnswer(identityOf(res.locals.punter as Punter))))
  for (const [path, withVerification] of [
    ['/punter/cps/one/identify-punter/simplified', false],
    ['/punter/cps/one/identify-punter/simplified/with-verification', true],
  ] as const) {
    gate.post(path, auth, validateBody(IDENTITY_SCHEMA), async (req, res) => {
      if (!nationalServiceOnly(req, res)) return
      const punter = res.locals.punter as Punter
      const next = national!.simplified(identityOf(punter), req.body as IdentityData, withVerification, deps.now())
      await save(punter.id, next)
      sendOk(res, cpsAnswer(next))
    })
  }
  gate.post('/punter/cps/one/identify-punter/continue', auth, noBody(), async (req, res) => {
    if (!nationalServiceOnly(req, res)) return
    const punter = res.locals.punter as Punter
    const current = identityOf(punter)
    if (current.result !== 'bind_in_progress' && current.result !== 'data_requested') return sendError(res, 409, 'INCORRECT_PUNTER_STATE')
    const next = national!.continue(current)
    await save(punter.id, next)
    sendOk(res, cpsAnswer(next))
  })
  gate.post('/punter/cps/one/identify-punter/esia/full', auth, noBody(), async (req, res) => {
    if (!nationalServiceOnly(req, res)) return
    const punter = res.locals.punter as Punter
    const state = newState()
    const { record, identificationLink } = national!.esiaFull(identityOf(punter), state)
    await save(punter.id, record)
    await rememberEsiaState(deps, punter.id, state)
    sendOk(res, cpsAnswer(record, identificationLink))
  })

  gate.get('/punter/cps/agreement-data', auth, (req, res) => {
    if (!nationalServiceOnly(req, res)) return
    sendOk(res, { ...IDENTIFICATION_AGREEMENT, operator: siteContext(req, deps).site.name })
  })

  gate.post('/verification/start-punter-auto-verification', auth, noBody(), async (_req, res) => {
    if (!autoVerificationLink) return unavailable(res)
    const punter = res.locals.punter as Punter
    if (autoVerificationOf(punter) === 'CONFIRMED') return sendOk(res, { link: null, autoVerificationState: 'CONFIRMED' })
    const state = await startAutoVerification(deps, punter.id)
    log.info('identity.auto-verification', { punterId: punter.id, state: 'STARTED' })
    sendOk(res, { link: autoVerificationLink(state), autoVerificationState: 'STARTED' })
  })

  gate.put('/nickname', auth, validateBody(SET_NICKNAME_SCHEMA), setNicknameHandler(deps))

  // ---- MitID ---------------------------------------------------------------------------------
  gate.get('/account/mitId/params', async (req, res) => {
    const mitId = mitIdService
    if (!mitId) return unavailable(res)
    const askCpr = req.query.askCpr === 'true'
    const { authorizationUrl, state } = await mitId.params(askCpr, deps.now())
    sendOk(res, { askCpr, redirectUrl: '/', authorizationUrl, state })
  })
  gate.post('/auth/mitId/login', validateBody(MITID_LOGIN_SCHEMA), async (req, res) => {
    const mitId = mitIdService
    if (!mitId) return unavailable(res)
    const { authorizationCode, state } = req.body as { authorizationCode: string; state: string }
    const now = deps.now()
    const identity = await mitId.exchange(authorizationCode, state, now)
    if (!identity) return sendError(res, 400, 'GENERAL')
    const { site } = siteContext(req, deps)
    const linked = await mitIdLinkOf(deps.data, identity.subject)
    let punter = linked !== undefined ? await punterById(deps.data, linked) : undefined
    if (!punter) {
      if (!identity.cprDigest) {
        log.info('auth.mitid.login', { outcome: 'NEED_CPR_REQUEST' })
        return sendError(res, 400, 'NEED_CPR_REQUEST')
      }
      const byCpr = await punterIdByProfileValue(deps.data, ['cprDigest'], identity.cprDigest, site.jurisdiction)
      if (byCpr === undefined) {
        log.info('auth.mitid.login', { outcome: 'PUNTER_NOT_LINKED_WITH_EXTERNAL_SYSTEM' })
        return sendError(res, 400, 'PUNTER_NOT_LINKED_WITH_EXTERNAL_SYSTEM')
      }
      await linkMitId(deps.data, identity.subject, byCpr)
      punter = (await punterById(deps.data, byCpr))!
    }
    if (punter.jurisdiction !== site.jurisdiction) return sendError(res, 400, 'PUNTER_NOT_LINKED_WITH_EXTERNAL_SYSTEM')
    log.info('auth.mitid.login', { outcome: 'OK', punterId: punter.id })
    await sendLoggedIn(deps, res, punter, now, { loginByAuthType: 'mitId' })
  })

  // ---- Belarus document upload --------------------------------------------------------------
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: UPLOAD_LIMITS.files, fields: 5, fieldSize: 1024 } })
  gate.post('/punter/documents/upload', auth, (req, res, next) => {
    // multer answers through a callback: a failed write below goes to the error handler (503), never an unhandled rejection
    upload.single('document')(req, res, (error: unknown) => void afterUpload(req, res, error).catch(next))
  })
  /** The upload's answer once multer has read the form (or refused it). */
  async function afterUpload(req: Request, res: Response, error: unknown) {
    if (error) {
      const code = (error as { code?: string }).code
      return sendError(res, code === 'LIMIT_FILE_SIZE' ? 413 : 400, code === 'LIMIT_FILE_SIZE' ? 'FILE_TOO_LARGE' : 'ValidationError', { field: 'document', code: code ?? 'invalid' })
    }
    const punter = res.locals.punter as Punter
    const file = (req as Request & { file?: Express.Multer.File }).file
    const documentType = (req.body as Record<string, unknown> | undefined)?.documentType
    if (!file) return sendError(res, 400, 'ValidationError', { field: 'document', code: 'required' })
    if (typeof documentType !== 'string' || !(DOCUMENT_TYPES as readonly string[]).includes(documentType))
      return sendError(res, 400, 'ValidationError', { field: 'documentType', code: 'enum' })
    const type = sniffType(file.buffer)
    if (!type) return sendError(res, 415, 'UNSUPPORTED_FILE_TYPE', { field: 'document', allowed: ['image/jpeg', 'image/png', 'application/pdf'] })
    const name = storeDocument(deps.config.dataDir, punter.id, file.buffer, type.ext)
    await setProfileFields(deps.data, punter.id, deps.now(), { documentsUploadState: 'UPLOADED', needUploadDocuments: false })
    log.info('identity.document.uploaded', { punterId: punter.id, documentType, type: type.type, bytes: file.size })
    sendOk(res, { documentsUploadState: 'UPLOADED', file: name, type: type.type, bytes: file.size })
  }

  router.use(GATEWAY.mobile, gate)

  if (simulators && national)
    router.use(
      createPortalSimulatorPages(deps, async (punterId, approved) => {
        const punter = await punterById(deps.data, punterId)
        if (!punter) return
        const current = identityOf(punter)
        await save(punterId, approved ? national.continue(current) : { ...current, result: 'fail', error: 'ExternalError' })
      }),
    )

  // ---- the MitID simulator's page (simulators only) -------------------------------------------
  const mitId = mitIdService
  if (simulators && mitId) {
    router.get('/dev/mitid/authorize', (req, res) => {
      const state = typeof req.query.state === 'string' ? req.query.state : ''
      res.type('html').send(
        `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>MitID simulator</title></head><body>
<h1>MitID (simulator)</h1><p>Local stand-in for the MitID broker. Pick a test identity; enter a CPR only if asked.</p>
<form method="post" action="/dev/mitid/authorize"><input type="hidden" name="state" value="${escapeHtml(state)}">
<label>MitID user <input name="subject" value="mitid-test-user" required maxlength="60" data-testid="mitid-subject"></label><br>
<label>CPR (DDMMYY-SSSS) <input name="cpr" maxlength="11" data-testid="mitid-cpr"></label><br>
<button type="submit" data-testid="mitid-approve">Approve</button></form></body></html>`,
      )
    })
    router.post('/dev/mitid/authorize', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
      // No body, or one that is not a form (JSON, text): an empty form, refused like a wrong state.
      const body = (req.body !== null && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>
      const state = typeof body.state === 'string' ? body.state : ''
      const subject = typeof body.subject === 'string' ? body.subject.trim().slice(0, 60) : ''
      const cpr = typeof body.cpr === 'string' && /^\d{6}-?\d{4}$/.test(body.cpr) ? body.cpr : undefined
      const code = subject ? await mitId.authorize(state, subject, cpr, deps.now()) : undefined
      if (!code) return res.redirect(303, `/join/mitid?mitIdError=access_denied`)
      res.redirect(303, `/join/mitid?mitIdCode=${encodeURIComponent(code)}&mitIdState=${encodeURIComponent(state)}`)
    })
  }
  return router
}
