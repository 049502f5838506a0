/**
 * Browser recognition (spec §7 `POST punter/recognition/link`): at login and sign-up the browser
 * links its fingerprint (FingerprintJS visitor id) to the punter of the session. One visitor id
 * across several punters is the multi-accounting signal the admin shows.
 */
import { Router, type Response } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import type { Punter } from '../punters/repository'
import { requirePunter } from '../signup/punters'
import { findRecognition, storeRecognition } from './store'

export const RECOGNITION_LINK_SCHEMA = {
  type: 'object',
  required: ['isMobileDevice', 'isMirror', 'algorithm', 'fingerprint', 'operationType', 'punterHash', 'requestId'],
  additionalProperties: false,
  properties: {
    isMobileDevice: { type: 'boolean' },
    isMirror: { type: 'boolean', description: 'The site was opened on a mirror domain.' },
    algorithm: { enum: ['fingerprintjs'], description: 'The library that computed the fingerprint.' },
    fingerprint: { type: 'string', pattern: '^[A-Za-z0-9]{8,64}$', description: 'The visitor id.' },
    operationType: { enum: ['LOGIN', 'REGISTRATION'] },
    punterHash: { type: 'string', minLength: 1, maxLength: 200, description: 'The session hash of the login result.' },
    requestId: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$', description: 'Client id of this call (retries repeat it).' },
  },
} as const

interface LinkBody {
  isMobileDevice: boolean
  isMirror: boolean
  algorithm: string
  fingerprint: string
  operationType: string
  punterHash: string
  requestId: string
}

export function createRecognitionRouter(deps: ServerDeps): Router {
  const router = Router()
  router.post('/punter/recognition/link', requirePunter(deps), validateBody(RECOGNITION_LINK_SCHEMA), async (req, res: Response) => {
    res.setHeader('Cache-Control', 'no-store')
    const body = req.body as LinkBody
    const punter = res.locals.punter as Punter
    const known = await findRecognition(deps.data.db, body.requestId, punter.id)
    const id =
      known?.id ??
      (await storeRecognition(
        deps.data.db,
        { punterId: punter.id, visitorId: body.fingerprint, algorithm: body.algorithm, operationType: body.operationType, isMobileDevice: body.isMobileDevice, isMirror: body.isMirror, requestId: body.requestId },
        deps.now(),
      ))
    sendOk(res, { linked: true, recognitionId: id })
  })
  return router
}

export const RECOGNITION_PREFIX = GATEWAY.mobile
