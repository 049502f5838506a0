/**
 * Which games a jurisdiction's punters are offered (issue 28 item 3): a game whose declared
 * return lies within the jurisdiction's `regulatory.gameReturn` range (percent, inclusive); a
 * jurisdiction without a range is offered none. A jurisdiction's own copy of a game document
 * (schemas/jurisdictions/<id>/games/) replaces the shared one for its punters.
 *
 * Set checks (the server refuses a document set with one, and schema-lint reports them): a range
 * whose minimum is above its maximum; a lobby game that two games of the same scope both claim;
 * a jurisdiction's own game outside its own range (it could never be offered). A shared game
 * outside some jurisdiction's range is not an error: those punters are not offered it (launch
 * answers GAME_RETURN_NOT_ALLOWED), and lint warns.
 */

export interface ReturnRange {
  minimum: number
  maximum: number
  basis?: string
}

/** The fields of a document record these checks read (tools/schema-lint/documents/loader.ts DocumentRecord). */
export interface GameRecordLike {
  kind: string
  id: string
  jurisdiction: string
  file: string
  source: Record<string, unknown>
}

export interface OfferProblem {
  file: string
  pointer: string
  message: string
  severity: 'error' | 'warning'
}

/** The jurisdiction document's allowed return, if it declares one. */
export function returnRangeOf(jurisdiction: Record<string, unknown> | undefined): ReturnRange | undefined {
  const regulatory = jurisdiction?.regulatory as { gameReturn?: ReturnRange } | undefined
  return regulatory?.gameReturn
}

export const isReturnAllowed = (declared: number, range: ReturnRange | undefined): boolean => range !== undefined && declared >= range.minimum && declared <= range.maximum

const lobbyOf = (record: GameRecordLike) => (Array.isArray(record.source.lobby) ? (record.source.lobby as string[]) : [])

/** The game a jurisdiction's punters play for a lobby game (product/gameId): its own copy first. */
export function gameFor<R extends GameRecordLike>(games: readonly R[], jurisdiction: string, lobbyGame: string): R | undefined {
  let found: R | undefined
  for (const record of games) {
    if (record.kind !== 'game' || (record.jurisdiction !== '' && record.jurisdiction !== jurisdiction)) continue
    if (!lobbyOf(record).includes(lobbyGame)) continue
    if (!found || record.jurisdiction !== '') found = record
  }
  return found
}

const percent = (value: number) => `${value.toFixed(2)} %`

/** Problems of a whole document set's games and return ranges (see the file comment). */
export function gameSetProblems(records: readonly GameRecordLike[]): OfferProblem[] {
  const problems: OfferProblem[] = []
  const ranges = new Map<string, ReturnRange | undefined>()
  for (const record of records.filter((r) => r.kind === 'jurisdiction')) {
    const range = returnRangeOf(record.source)
    ranges.set(record.id, range)
    if (range && range.minimum > range.maximum)
      problems.push({ file: record.file, pointer: '/regulatory/gameReturn', message: `the minimum return ${percent(range.minimum)} is above the maximum ${percent(range.maximum)}`, severity: 'error' })
  }
  const games = records.filter((r) => r.kind === 'game')
  const claimed = new Map<string, string>()
  for (const game of games) {
    lobbyOf(game).forEach((lobbyGame, i) => {
      const key = `${game.jurisdiction}|${lobbyGame}`
      const other = claimed.get(key)
      if (other) problems.push({ file: game.file, pointer: `/lobby/${i}`, message: `the lobby game ${lobbyGame} is already played by ${other}`, severity: 'error' })
      else claimed.set(key, game.file)
    })
    const declared = Number(game.source.targetReturn)
    const scope = game.jurisdiction ? [game.jurisdiction] : [...ranges.keys()]
    for (const jurisdiction of scope) {
      const range = ranges.get(jurisdiction)
      if (isReturnAllowed(declared, range)) continue
      // the jurisdiction's own copy replaces a shared game: nothing is withheld then
      if (!game.jurisdiction && games.some((g) => g.jurisdiction === jurisdiction && g.id === game.id)) continue
      const why = range ? `outside ${jurisdiction}'s allowed range ${percent(range.minimum)}–${percent(range.maximum)}` : `and ${jurisdiction} declares no allowed range (regulatory.gameReturn)`
      problems.push({
        file: game.file,
        pointer: '/targetReturn',
        message: game.jurisdiction ? `declares ${percent(declared)}, ${why}: it could never be offered` : `declares ${percent(declared)}, ${why}: ${jurisdiction}'s punters are not offered it`,
        severity: game.jurisdiction ? 'error' : 'warning',
      })
    }
  }
  return problems
}
