/**
 * The parts of identification that happen away from our pages (spec §7 "Identity service",
 * `verification/start-punter-auto-verification`; §3 auto verification states): the state portal
 * (ESIA) a Russian punter approves on, and the online auto-verification any punter may be sent to.
 * Both hand the browser a link to the outside service; the service's answer comes back with the
 * `state` we gave it. Here both services are local simulator pages (simulators on only), so a demo
 * and the tests can reach every outcome; a real connector replaces the pages, not the calls.
 *
 * States are random 24-byte values; only their SHA-256 is stored (in the punter's profile), and
 * each is used once (checked again inside the write that uses it up, so across instances too).
 */
import { createHash, randomBytes } from 'node:crypto'
import express, { Router, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { changePunterProfile, punterIdByProfileValue, setProfileFields } from '../punters/lookups'
import type { Punter } from '../punters/repository'

export const AUTO_VERIFICATION_STATES = ['STARTED', 'CONFIRMED', 'UNCONFIRMED', 'CLOSED', 'UNKNOWN'] as const
export type AutoVerificationState = (typeof AUTO_VERIFICATION_STATES)[number]
/** The outcomes a tester may pick on the simulator page (STARTED and UNKNOWN are not answers). */
const AUTO_VERIFICATION_OUTCOMES = ['CONFIRMED', 'UNCONFIRMED', 'CLOSED'] as const

export const newState = () => randomBytes(24).toString('base64url')
export const stateDigest = (state: string) => createHash('sha256').update(`portal:${state}`).digest('hex')

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const formBody = (req: Request) => (req.body !== null && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>
const field = (body: Record<string, unknown>, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '')

/** The punter's auto-verification as stored; UNKNOWN when none was ever started. */
export function autoVerificationOf(punter: Punter): AutoVerificationState {
  const stored = (punter.profile as { autoVerification?: { state?: string } }).autoVerification?.state
  return (AUTO_VERIFICATION_STATES as readonly string[]).includes(stored ?? '') ? (stored as AutoVerificationState) : 'UNKNOWN'
}

/** Starts (or restarts) an auto-verification: the state to hand the service. */
export async function startAutoVerification(deps: ServerDeps, punterId: number): Promise<string> {
  const state = newState()
  await setProfileFields(deps.data, punterId, deps.now(), { autoVerification: { state: 'STARTED', stateSha: stateDigest(state) } })
  return state
}

/** The punter a state was handed out for, at its place in the profile (undefined: not ours). */
async function punterIdByState(deps: ServerDeps, path: readonly string[], state: string): Promise<number | undefined> {
  if (!state || state.length > 100) return undefined
  return punterIdByProfileValue(deps.data, path, stateDigest(state))
}

/**
 * The auto-verification service's answer for a state; UNKNOWN when the state is not ours. The
 * state is checked again inside the write, so one state is answered once even when two
 * instances receive it at the same moment.
 */
export async function finishAutoVerification(deps: ServerDeps, state: string, outcome: string): Promise<AutoVerificationState> {
  const punterId = await punterIdByState(deps, ['autoVerification', 'stateSha'], state)
  if (punterId === undefined || !(AUTO_VERIFICATION_OUTCOMES as readonly string[]).includes(outcome)) return 'UNKNOWN'
  const digest = stateDigest(state)
  const answered = await changePunterProfile(deps.data, punterId, deps.now(), ({ profile }) => {
    const current = (profile as { autoVerification?: { stateSha?: string } }).autoVerification
    if (current?.stateSha !== digest) return undefined
    return { profile: { ...profile, autoVerification: { state: outcome }, needAutoVerification: outcome !== 'CONFIRMED' } }
  })
  if (!answered) return 'UNKNOWN'
  deps.log.info('identity.auto-verification', { punterId, state: outcome })
  return outcome as AutoVerificationState
}

/** The state-portal answer for a state: the punter it belongs to (the state is used up, once across instances). */
export async function takeEsiaState(deps: ServerDeps, state: string): Promise<number | undefined> {
  const punterId = await punterIdByState(deps, ['esiaStateSha'], state)
  if (punterId === undefined) return undefined
  const digest = stateDigest(state)
  const taken = await changePunterProfile(deps.data, punterId, deps.now(), ({ profile }) => {
    if (profile.esiaStateSha !== digest) return undefined
    const rest = { ...profile }
    delete rest.esiaStateSha
    return { profile: rest }
  })
  return taken ? punterId : undefined
}

export async function rememberEsiaState(deps: ServerDeps, punterId: number, state: string): Promise<void> {
  await setProfileFields(deps.data, punterId, deps.now(), { esiaStateSha: stateDigest(state) })
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body>
<h1>${escapeHtml(title)}</h1>${body}</body></html>`
}

/**
 * The simulators' pages: the state portal (ESIA) and the auto-verification service. `onEsia`
 * applies the portal's answer (approved or refused) to the punter's identification.
 */
export function createPortalSimulatorPages(deps: ServerDeps, onEsia: (punterId: number, approved: boolean) => Promise<void>): Router {
  const router = Router()
  const form = express.urlencoded({ extended: false, limit: '4kb' })

  router.get('/dev/identity/esia', (req, res) => {
    const state = typeof req.query.state === 'string' ? req.query.state : ''
    res.type('html').send(
      page(
        'Gosuslugi / ESIA (simulator)',
        `<p>Local stand-in for the state services portal: the punter confirms that the operator may receive the passport data of the account.</p>
<form method="post" action="/dev/identity/esia"><input type="hidden" name="state" value="${escapeHtml(state)}">
<button type="submit" name="decision" value="approve" data-testid="esia-approve">Allow</button>
<button type="submit" name="decision" value="refuse" data-testid="esia-refuse">Refuse</button></form>`,
      ),
    )
  })
  router.post('/dev/identity/esia', form, async (req: Request, res: Response) => {
    const body = formBody(req)
    const punterId = await takeEsiaState(deps, field(body, 'state'))
    if (punterId === undefined) return res.redirect(303, '/account/tsupis/identity?esia=unknown')
    const approved = field(body, 'decision') === 'approve'
    await onEsia(punterId, approved)
    res.redirect(303, `/account/tsupis/identity?esia=${approved ? 'approved' : 'refused'}`)
  })

  router.get('/dev/identity/auto-verification', (req, res) => {
    const state = typeof req.query.state === 'string' ? req.query.state : ''
    const buttons = AUTO_VERIFICATION_OUTCOMES.map((o) => `<button type="submit" name="outcome" value="${o}" data-testid="auto-verification-${o.toLowerCase()}">${o}</button>`).join('\n')
    res.type('html').send(
      page(
        'Online identity verification (simulator)',
        `<p>Local stand-in for the verification service. Pick its answer.</p>
<form method="post" action="/dev/identity/auto-verification"><input type="hidden" name="state" value="${escapeHtml(state)}">
${buttons}</form>`,
      ),
    )
  })
  router.post('/dev/identity/auto-verification', form, async (req: Request, res: Response) => {
    const body = formBody(req)
    const outcome = await finishAutoVerification(deps, field(body, 'state'), field(body, 'outcome'))
    res.redirect(303, `/account/id-confirmation?autoVerification=${outcome}`)
  })
  return router
}
