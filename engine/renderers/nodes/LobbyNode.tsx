/**
 * A casino lobby (issue 31 item 3, node kind `lobby`): a labelled search that narrows the tiles as
 * the punter types (applied 250 ms after the last key, the count of games then announced), filters
 * by category, provider, new games and — for a logged-in punter — his favourites, and the game
 * tiles with their art (sized, the first rows at once and the rest lazily, so nothing shifts).
 * Which filters a lobby offers, its games and where a tile leads are the document's. The search
 * and filters survive going to a game and back (kept per history entry, like the scroll).
 */
import { useEffect, useId, useMemo, useState } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { asLobbyGames, facetsOf, filterGames, NO_FILTER, type LobbyFilter } from '../../../kernel/core/lobby-filter'
import type { NodeOf } from '../../../kernel/documents/types'
import { useEvaluate, useRuntime } from '../runtime'
import { safeImageSource } from './ImageNode'

/** Tiles on screen at a phone's first paint (two columns, two rows): loaded at once. */
const LEADING_TILES = 4
const SEARCH_DELAY_MS = 250

/** The search and filters of each history entry of this page, for back and forward. */
const kept = new Map<string, LobbyFilter>()

type Game = ReturnType<typeof asLobbyGames>[number]

/** The favourite games' ids, from a list of ids or of games (the favourites answer's cards). */
const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map((g) => (typeof g === 'string' ? g : (g as { id?: unknown } | null)?.id)).filter((id): id is string => typeof id === 'string') : [])

function Tile({ game, to, leading }: { game: Game; to: string; leading: boolean }) {
  const runtime = useRuntime()
  const image = safeImageSource(game.image)
  return (
    <Link className="card" to={runtime.href(to)} data-game-id={game.id} data-testid="lobby-tile">
      {image && <img className="card__image" src={image} alt="" width={game.width ?? 240} height={game.height ?? 180} loading={leading ? 'eager' : 'lazy'} fetchPriority={leading ? 'high' : undefined} decoding="async" />}
      {game.isNew && <span className="card__badge">{runtime.t('lobby.badge.new')}</span>}
      <span className="card__body">
        <span className="card__title">{game.title}</span>
        <span className="card__subtitle">{game.provider}</span>
      </span>
    </Link>
  )
}

function Chip({ pressed, onPress, children, testId, live }: { pressed: boolean; onPress(): void; children: string; testId?: string; live: boolean }) {
  return (
    <button type="button" className="lobby__chip" aria-pressed={pressed} onClick={onPress} data-testid={testId} disabled={!live}>
      {children}
    </button>
  )
}

/** The filter state of this history entry, kept for back and forward; the search applied after a pause. */
function useLobbyFilter(): [LobbyFilter, LobbyFilter, (change: Partial<LobbyFilter>) => void] {
  const { key } = useLocation()
  const [shown, setShown] = useState<LobbyFilter>(() => kept.get(key) ?? NO_FILTER)
  const [applied, setApplied] = useState(shown)
  useEffect(() => {
    const timer = setTimeout(() => setApplied(shown), shown.query === applied.query ? 0 : SEARCH_DELAY_MS)
    kept.set(key, shown)
    return () => clearTimeout(timer)
  }, [shown, key]) // eslint-disable-line react-hooks/exhaustive-deps
  return [shown, applied, (change) => setShown((now) => ({ ...now, ...change }))]
}

export function LobbyNode({ node }: { node: NodeOf<'lobby'> }) {
  const runtime = useRuntime()
  const { value, ctx } = useEvaluate()
  const searchId = useId()
  const games = useMemo(() => asLobbyGames(value(node.games)), [value, node.games])
  const favourites = new Set(idsOf(value(node.favourites)))
  const [shown, applied, change] = useLobbyFilter()
  // typed or chosen before the page is live would be lost when React takes the server's markup
  // over: until then the search is read-only and the filters disabled
  const [live, setLive] = useState(false)
  useEffect(() => setLive(true), [])
  const offered = new Set(node.filters ?? ['category', 'provider', 'new', 'favourites'])
  const { categories, providers } = facetsOf(games)
  const found = filterGames(games, { ...applied, favouritesOnly: applied.favouritesOnly && ctx.session.loggedIn }, favourites)
  const t = runtime.t
  return (
    <section className="lobby" data-testid={node.testId ?? 'lobby'}>
      <div className="lobby__search">
        <label htmlFor={searchId}>{t('lobby.search.label')}</label>
        <input id={searchId} type="search" inputMode="search" autoComplete="off" value={shown.query} readOnly={!live} placeholder={t('lobby.search.placeholder')} onChange={(e) => change({ query: e.target.value })} data-testid="lobby-search" />
      </div>
      <div className="lobby__filters" role="group" aria-label={t('lobby.filters')}>
        {offered.has('category') && categories.length > 1 && (
          <>
            <Chip live={live} pressed={shown.category === null} onPress={() => change({ category: null })}>{t('lobby.filter.all')}</Chip>
            {categories.map((category) => (
              <Chip key={category} live={live} pressed={shown.category === category} onPress={() => change({ category: shown.category === category ? null : category })} testId={`lobby-category-${category}`}>
                {t(`lobby.category.${category}`)}
              </Chip>
            ))}
          </>
        )}
        {offered.has('new') && games.some((g) => g.isNew) && <Chip live={live} pressed={shown.newOnly} onPress={() => change({ newOnly: !shown.newOnly })} testId="lobby-new">{t('lobby.filter.new')}</Chip>}
        {offered.has('favourites') && ctx.session.loggedIn && <Chip live={live} pressed={shown.favouritesOnly} onPress={() => change({ favouritesOnly: !shown.favouritesOnly })} testId="lobby-favourites">{t('lobby.filter.favourites')}</Chip>}
        {offered.has('provider') && providers.length > 1 && (
          <label className="lobby__provider">
            <span>{t('lobby.filter.provider')}</span>
            <select value={shown.provider ?? ''} disabled={!live} onChange={(e) => change({ provider: e.target.value || null })} data-testid="lobby-provider">
              <option value="">{t('lobby.filter.allProviders')}</option>
              {providers.map((provider) => (
                <option key={provider} value={provider}>{provider}</option>
              ))}
            </select>
          </label>
        )}
      </div>
      <p className="lobby__count" role="status" data-testid="lobby-count" data-count={found.length}>
        {t('lobby.count', { count: found.length })}
      </p>
      {found.length === 0 ? (
        <p className="node-list__empty">
          {t('lobby.noMatch')}{' '}
          <button type="button" className="button" data-variant="ghost" onClick={() => change(NO_FILTER)}>{t('lobby.clear')}</button>
        </p>
      ) : (
        <ul className="node-list" data-layout="grid" data-testid="lobby-tiles">
          {found.map((game, index) => (
            <li key={game.id}>
              <Tile game={game} to={`${node.gamePath}${encodeURIComponent(game.id)}`} leading={index < LEADING_TILES} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
