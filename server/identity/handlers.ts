/**
 * The identity module's handlers (routes in ./index.ts): the national identification service's
 * calls, auto-verification, the document upload, MitID login and the MitID simulator's page, each
 * a named function of the identity kit, so createIdentityRouter stays a list of routes (issue 32:
 * no function over 80 lines).
 */
import type { Request, RequestHandler, Response } from 'express'
import multer from 'multer'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { jurisdictionOf } from '../dictionary'
import { siteContext } from '../http/site'
import { punterIdByProfileValue, setProfileFields } from '../punters/lookups'
import type { Punter } from '../punters/repository'
import { punterById, sendLoggedIn } from '../signup/punters'
import { isIdentified, NO_IDENTITY, type IdentityData, type IdentityRecord, type NationalIdentityProvider } from './cps'
import { linkMitId, mitIdLinkOf, type MitIdBroker } from './mitid'
import { autoVerificationOf, newState, rememberEsiaState, startAutoVerification } from './portal'
import { DOCUMENT_TYPES, sniffType, storeDocument, UPLOAD_LIMITS } from './upload'

/** What the identity handlers share: the deps and the providers in use (none: their calls answer 503). */
export interface IdentityKit {
  deps: ServerDeps
  national: NationalIdentityProvider | undefined
  mitId: MitIdBroker | undefined
  autoVerificationLink: ((state: string) => string) | undefined
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

export const identityOf = (punter: Punter): IdentityRecord => ({ ...NO_IDENTITY, ...((punter.profile as { identity?: IdentityRecord }).identity ?? {}), result: (punter.identityState as IdentityRecord['result']) || 'none' })

/** The spec's response shape: baseResult.status, cupisOneInfo, identificationLink. */
const cpsAnswer = (record: IdentityRecord, identificationLink: string | null = null) => ({
  baseResult: { status: record.error ? 'ERROR' : 'OK', errorCode: record.error },
  cupisOneInfo: { ...record, identified: isIdentified(record) },
  identificationLink,
})

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const unavailable = (res: Response) => sendError(res, 503, 'SERVICE_UNAVAILABLE')

/** Stores the punter's identification record (and its state column), logged. */
export async function saveIdentity(deps: ServerDeps, punterId: number, record: IdentityRecord) {
  await setProfileFields(deps.data, punterId, deps.now(), { identity: record }, { identity_state: record.result })
  deps.log.info('identity.updated', { punterId, result: record.result, level: record.level, lockReason: record.lockReason })
}

/** True when the national service is there and the request's jurisdiction uses it; else answered (503/403). */
function nationalServiceOnly({ deps, national }: IdentityKit, req: Request, res: Response): boolean {
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

export const identificationInfo = (): RequestHandler => (_req, res) => sendOk(res, cpsAnswer(identityOf(res.locals.punter as Punter)))

export function identifySimplified(kit: IdentityKit, withVerification: boolean): RequestHandler {
  return async (req, res) => {
    if (!nationalServiceOnly(kit, req, res)) return
    const punter = res.locals.punter as Punter
    const next = kit.national!.simplified(identityOf(punter), req.body as IdentityData, withVerification, kit.deps.now())
    await saveIdentity(kit.deps, punter.id, next)
    sendOk(res, cpsAnswer(next))
  }
}

export function identifyContinue(kit: IdentityKit): RequestHandler {
  return async (req, res) => {
    if (!nationalServiceOnly(kit, req, res)) return
    const punter = res.locals.punter as Punter
    const current = identityOf(punter)
    if (current.result !== 'bind_in_progress' && current.result !== 'data_requested') return sendError(res, 409, 'INCORRECT_PUNTER_STATE')
    const next = kit.national!.continue(current)
    await saveIdentity(kit.deps, punter.id, next)
    sendOk(res, cpsAnswer(next))
  }
}

export function identifyEsiaFull(kit: IdentityKit): RequestHandler {
  return async (req, res) => {
    if (!nationalServiceOnly(kit, req, res)) return
    const punter = res.locals.punter as Punter
    const state = newState()
    const { record, identificationLink } = kit.national!.esiaFull(identityOf(punter), state)
    await saveIdentity(kit.deps, punter.id, record)
    await rememberEsiaState(kit.deps, punter.id, state)
    sendOk(res, cpsAnswer(record, identificationLink))
  }
}

export function agreementData(kit: IdentityKit): RequestHandler {
  return (req, res) => {
    if (!nationalServiceOnly(kit, req, res)) return
    sendOk(res, { ...IDENTIFICATION_AGREEMENT, operator: siteContext(req, kit.deps).site.name })
  }
}

export function startPunterAutoVerification({ deps, autoVerificationLink }: IdentityKit): RequestHandler {
  return async (_req, res) => {
    if (!autoVerificationLink) return unavailable(res)
    const punter = res.locals.punter as Punter
    if (autoVerificationOf(punter) === 'CONFIRMED') return sendOk(res, { link: null, autoVerificationState: 'CONFIRMED' })
    const state = await startAutoVerification(deps, punter.id)
    deps.log.info('identity.auto-verification', { punterId: punter.id, state: 'STARTED' })
    sendOk(res, { link: autoVerificationLink(state), autoVerificationState: 'STARTED' })
  }
}

export function mitIdParams({ deps, mitId }: IdentityKit): RequestHandler {
  return async (req, res) => {
    if (!mitId) return unavailable(res)
    const askCpr = req.query.askCpr === 'true'
    const { authorizationUrl, state } = await mitId.params(askCpr, deps.now())
    sendOk(res, { askCpr, redirectUrl: '/', authorizationUrl, state })
  }
}

export function mitIdLogin({ deps, mitId }: IdentityKit): RequestHandler {
  const { log } = deps
  return async (req, res) => {
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
  }
}

/** Belarus document upload: multer reads the form, then afterUpload answers. */
export function documentUpload(deps: ServerDeps): RequestHandler {
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: UPLOAD_LIMITS.files, fields: 5, fieldSize: 1024 } })
  return (req, res, next) => {
    // multer answers through a callback: a failed write below goes to the error handler (503), never an unhandled rejection
    upload.single('document')(req, res, (error: unknown) => void afterUpload(deps, req, res, error).catch(next))
  }
}

/** The upload's answer once multer has read the form (or refused it). */
async function afterUpload(deps: ServerDeps, req: Request, res: Response, error: unknown) {
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
  deps.log.info('identity.document.uploaded', { punterId: punter.id, documentType, type: type.type, bytes: file.size })
  sendOk(res, { documentsUploadState: 'UPLOADED', file: name, type: type.type, bytes: file.size })
}

/** The portals' simulator outcome: an approved identification continues, a refused one fails. */
export function portalOutcome(deps: ServerDeps, national: NationalIdentityProvider) {
  return async (punterId: number, approved: boolean) => {
    const punter = await punterById(deps.data, punterId)
    if (!punter) return
    const current = identityOf(punter)
    await saveIdentity(deps, punterId, approved ? national.continue(current) : { ...current, result: 'fail', error: 'ExternalError' })
  }
}

/** The MitID simulator's page (simulators only). */
export const mitIdSimulatorPage = (): RequestHandler => (req, res) => {
  const state = typeof req.query.state === 'string' ? req.query.state : ''
  res.type('html').send(
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>MitID simulator</title></head><body>
<h1>MitID (simulator)</h1><p>Local stand-in for the MitID broker. Pick a test identity; enter a CPR only if asked.</p>
<form method="post" action="/dev/mitid/authorize"><input type="hidden" name="state" value="${escapeHtml(state)}">
<label>MitID user <input name="subject" value="mitid-test-user" required maxlength="60" data-testid="mitid-subject"></label><br>
<label>CPR (DDMMYY-SSSS) <input name="cpr" maxlength="11" data-testid="mitid-cpr"></label><br>
<button type="submit" data-testid="mitid-approve">Approve</button></form></body></html>`,
  )
}

export function mitIdSimulatorApprove(deps: ServerDeps, mitId: MitIdBroker): RequestHandler {
  return async (req, res) => {
    // No body, or one that is not a form (JSON, text): an empty form, refused like a wrong state.
    const body = (req.body !== null && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>
    const state = typeof body.state === 'string' ? body.state : ''
    const subject = typeof body.subject === 'string' ? body.subject.trim().slice(0, 60) : ''
    const cpr = typeof body.cpr === 'string' && /^\d{6}-?\d{4}$/.test(body.cpr) ? body.cpr : undefined
    const code = subject ? await mitId.authorize(state, subject, cpr, deps.now()) : undefined
    if (!code) return res.redirect(303, `/join/mitid?mitIdError=access_denied`)
    res.redirect(303, `/join/mitid?mitIdCode=${encodeURIComponent(code)}&mitIdState=${encodeURIComponent(state)}`)
  }
}
