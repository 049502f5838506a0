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
import express, { Router } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { validateBody, noBody } from '../http/validate'
import { requirePunter } from '../signup/punters'
import { simulatedNationalIdentity, type NationalIdentityProvider } from './cps'
import { createSimulatedMitId, type MitIdBroker } from './mitid'
import { SET_NICKNAME_SCHEMA, setNicknameHandler } from './nickname'
import { createPortalSimulatorPages } from './portal'
import * as handle from './handlers'

export { IDENTIFICATION_AGREEMENT } from './handlers'

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

export function createIdentityRouter(deps: ServerDeps, services: IdentityServices = {}): Router {
  const router = Router()
  const gate = Router()
  const simulators = deps.config.simulators
  const national = services.national ?? (simulators ? simulatedNationalIdentity : undefined)
  const mitId = services.mitId ?? (simulators ? createSimulatedMitId(deps.data) : undefined)
  const autoVerificationLink = services.autoVerificationLink ?? (simulators ? (state: string) => `/dev/identity/auto-verification?state=${encodeURIComponent(state)}` : undefined)
  const kit: handle.IdentityKit = { deps, national, mitId, autoVerificationLink }
  const auth = requirePunter(deps)

  gate.get('/punter/cps/one/info', auth, handle.identificationInfo())
  gate.post('/punter/cps/one/identify-punter/simplified', auth, validateBody(IDENTITY_SCHEMA), handle.identifySimplified(kit, false))
  gate.post('/punter/cps/one/identify-punter/simplified/with-verification', auth, validateBody(IDENTITY_SCHEMA), handle.identifySimplified(kit, true))
  gate.post('/punter/cps/one/identify-punter/continue', auth, noBody(), handle.identifyContinue(kit))
  gate.post('/punter/cps/one/identify-punter/esia/full', auth, noBody(), handle.identifyEsiaFull(kit))
  gate.get('/punter/cps/agreement-data', auth, handle.agreementData(kit))
  gate.post('/verification/start-punter-auto-verification', auth, noBody(), handle.startPunterAutoVerification(kit))
  gate.put('/nickname', auth, validateBody(SET_NICKNAME_SCHEMA), setNicknameHandler(deps))
  gate.get('/account/mitId/params', handle.mitIdParams(kit))
  gate.post('/auth/mitId/login', validateBody(MITID_LOGIN_SCHEMA), handle.mitIdLogin(kit))
  gate.post('/punter/documents/upload', auth, handle.documentUpload(deps))
  router.use(GATEWAY.mobile, gate)

  if (simulators && national) router.use(createPortalSimulatorPages(deps, handle.portalOutcome(deps, national)))
  if (simulators && mitId) {
    router.get('/dev/mitid/authorize', handle.mitIdSimulatorPage())
    router.post('/dev/mitid/authorize', express.urlencoded({ extended: false, limit: '4kb' }), handle.mitIdSimulatorApprove(deps, mitId))
  }
  return router
}
