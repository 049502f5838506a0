/**
 * Casino game rules across documents (issue 28 item 3), shared with the server's load check
 * (kernel/games/offer.ts): a lobby game two games claim, a jurisdiction's own game outside its own
 * allowed return, a range whose minimum is above its maximum (errors, which the server also refuses);
 * a shared game outside some jurisdiction's range (a warning: those punters are not offered it).
 * Each game's declared return against its paytable is checked when the document is read.
 */
import type { DocumentRecord } from '../documents/loader'
import { gameSetProblems } from '../../../kernel/games/offer'
import type { Finding } from '../finding'

export const GAME_RULE = 'game'

export function gameFindings(records: DocumentRecord[]): Finding[] {
  return gameSetProblems(records).map((problem) => ({ ...problem, rule: GAME_RULE }))
}
