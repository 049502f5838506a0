/**
 * The punter's nickname (spec §5 "nickname is 3-33 characters starting with a letter", "Nickname
 * prompt"; §8 NICKNAME_ALREADY_EXIST): whether the prompt applies and the call that sets it.
 *
 * Where the nickname applies is jurisdiction policy and lives in ONE place: the `nickname` block of
 * the jurisdiction document (`enabled`, `skipCountries`). `GET nickname/enabled`, this call and
 * sign-up all read it through `nicknamePolicyFor`, so an operator's change reaches every check.
 *
 *   PUT nickname {nickname}   → 200 {nickname} | 400 ValidationError | 403 FORBIDDEN | 409 NICKNAME_ALREADY_EXIST
 */
import type { Request, Response } from 'express'
import { isUniqueViolation } from '../db/storage-errors'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { lowerIs, type Punter } from '../punters/repository'
import { NICKNAME, nicknameApplies, type NicknamePolicy } from '../signup/rules'

export const SET_NICKNAME_SCHEMA = {
  type: 'object',
  required: ['nickname'],
  additionalProperties: false,
  properties: { nickname: { type: 'string', minLength: 1, maxLength: 200 } },
} as const

/** The nickname block of the punter's own jurisdiction document (as this request sees it). */
export function nicknamePolicyFor(deps: Pick<ServerDeps, 'documents'>, req: Request, jurisdiction: string): NicknamePolicy | undefined {
  const record = deps.documents.resolve('jurisdiction', jurisdiction, siteContext(req, deps))
  return (record?.source as { nickname?: NicknamePolicy } | undefined)?.nickname
}

/** Does the nickname apply to this punter (site policy and the punter's country)? */
export function nicknameEnabledFor(deps: Pick<ServerDeps, 'documents'>, req: Request, punter: Punter): boolean {
  return nicknameApplies(nicknamePolicyFor(deps, req, punter.jurisdiction), punter.profile.countryCode)
}

/** The field error of a typed nickname (trimmed first), or null when it follows the rules. */
export function nicknameRuleError(value: string): { field: 'nickname'; code: 'minLength' | 'maxLength' | 'pattern'; limit?: number } | null {
  const nickname = value.trim()
  if ([...nickname].length < 3) return { field: 'nickname', code: 'minLength', limit: 3 }
  if ([...nickname].length > 33) return { field: 'nickname', code: 'maxLength', limit: 33 }
  return NICKNAME.test(nickname) ? null : { field: 'nickname', code: 'pattern' }
}

/** PUT nickname: the punter's session is checked before (res.locals.punter). */
export function setNicknameHandler(deps: ServerDeps) {
  return async (req: Request, res: Response) => {
    const punter = res.locals.punter as Punter
    if (!nicknameEnabledFor(deps, req, punter)) return sendError(res, 403, 'FORBIDDEN')
    const typed = (req.body as { nickname: string }).nickname
    const problem = nicknameRuleError(typed)
    if (problem) return sendError(res, 400, 'ValidationError', problem)
    const nickname = typed.trim()
    const taken = await deps.data.db.selectFrom('punters').select('id').where(lowerIs('nickname', nickname)).where('id', '!=', punter.id).executeTakeFirst()
    if (taken) return sendError(res, 409, 'NICKNAME_ALREADY_EXIST', { field: 'nickname', code: 'NICKNAME_ALREADY_EXIST' })
    try {
      await deps.data.db.updateTable('punters').set({ nickname, updated_at: deps.now() }).where('id', '=', punter.id).execute()
    } catch (error) {
      // two punters claiming one name at once (on two instances too): the unique index decides
      if (isUniqueViolation(error)) return sendError(res, 409, 'NICKNAME_ALREADY_EXIST', { field: 'nickname', code: 'NICKNAME_ALREADY_EXIST' })
      throw error
    }
    deps.log.info('punter.nickname.set', { punterId: punter.id, changed: Boolean(punter.nickname) })
    sendOk(res, { nickname })
  }
}
