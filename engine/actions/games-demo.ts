/**
 * Demo play (issue 31 item 3): a guest tries a lobby game with play money, where the site's
 * jurisdiction allows it. The server plays the round with the game's own maths (server/games/demo.ts)
 * and keeps nothing; the play money is this tab's (engine/core/play-money.ts), so it never meets
 * the ledger or the header's balance.
 *
 *   game.demoPlay {product, gameId, stake, cashOutAt?}   one demo round into data.round, play money into data.playMoney
 *   game.demoReset {}                                    a fresh 1,000 of play money
 */
import type { Result } from '../../kernel/core/contracts'
import { refusalMessageKey } from '../core/gateway'
import { scaledInteger } from '../../kernel/core/money'
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { PLAY_MONEY_START, readPlayMoney, writePlayMoney } from '../core/play-money'
import { definitions } from '../../kernel/actions/games-demo'
import { implementAction as action, type ActionEnvironment } from './registry'

function keepPlayMoney(env: ActionEnvironment, hundredths: number): void {
  writePlayMoney(hundredths)
  env.stores.screenData.getState().setData('playMoney', hundredths / 100)
}

function refuse(env: ActionEnvironment, code: string): Result<never> {
  env.stores.ui.getState().notify({ id: refusalMessageKey(code, {}, (k) => env.i18n.has(k)), status: 'error', duration: NOTIFICATION_DURATION_MS })
  return { ok: false, code }
}

export const gameDemoPlay = action<{ product: string; gameId: string; stake: number; cashOutAt?: number }>(definitions, {
  name: 'game.demoPlay',
  async handler({ product, gameId, stake, cashOutAt }, env) {
    const stakeHundredths = scaledInteger(stake, 2)
    if (stakeHundredths === undefined || stakeHundredths <= 0n) return { ok: false, code: 'INVALID_PARAMS', message: 'game.demoPlay: a stake of at most 2 decimals' }
    const before = readPlayMoney()
    if (Number(stakeHundredths) > before) return refuse(env, 'PLAY_MONEY_TOO_LOW')
    const body = { stake, ...(typeof cashOutAt === 'number' ? { cashOutAt } : {}) }
    const result = await env.gateway.call<{ win: number }>('POST', `/api/games/demo/${encodeURIComponent(product)}/${encodeURIComponent(gameId)}/play`, body)
    if (!result.ok) return refuse(env, result.code)
    const winHundredths = Number(scaledInteger(result.value.win, 2) ?? 0n)
    keepPlayMoney(env, before - Number(stakeHundredths) + winHundredths)
    env.stores.screenData.getState().setData('round', result.value)
    return result
  },
})

export const gameDemoReset = action<Record<string, never>>(definitions, {
  name: 'game.demoReset',
  async handler(_params, env) {
    keepPlayMoney(env, PLAY_MONEY_START)
    return { ok: true, value: PLAY_MONEY_START / 100 }
  },
})

/** A guest's demo rounds (engine/actions/index.ts lists them with the other domains). */
export const gameDemoActions = [gameDemoPlay, gameDemoReset]
