/**
 * The gambling channel's news (spec §4 "Gambling channel: one type GI", §7 "route by … type casino"),
 * decided here as the spec does not say what GI carries: the site's big wins, as they happen — a
 * round on any game that pays at least BIG_WIN_MULTIPLIER times its stake. It goes to every socket
 * that subscribed GI (the game pages), with the game and the multiplier and no one's name or
 * amount: the ticker makes a game page feel alive without telling anyone who won what.
 */
import { EventEmitter } from 'node:events'

export const BIG_WIN_MULTIPLIER = 10

export interface BigWin {
  product: string
  gameId: string
  game: string
  multiplier: number
}

export const gamblingEvents = new EventEmitter()
gamblingEvents.setMaxListeners(0)

/** Announces a finished round when it is a big win (the games module calls it for every new round). */
export function announceRound(round: { product: string; gameId: string; stake: number; win: number }, game: string): void {
  if (!(round.stake > 0)) return
  const multiplier = Math.round((round.win / round.stake) * 100) / 100
  if (multiplier < BIG_WIN_MULTIPLIER) return
  const win: BigWin = { product: round.product, gameId: round.gameId, game, multiplier }
  gamblingEvents.emit('casino', win)
}
