/**
 * A lobby game being played (issue 14 item 6; loaded lazily by ./GameNode.tsx, issue 31): the demo
 * engine made here, same origin, under the site's CSP (no frames, no eval). The slot shows three
 * reels and a Spin button; the crash game a target multiplier and a Play button, then where the
 * round crashed. Outcomes come from the server. A punter's stake and win go through the balance
 * shown in the header (`game.launch`, `game.play`); a guest's demo rounds (`demo`) through his play
 * money, labelled as such (`game.demoPlay`), with the game's engine from the page's game card.
 * It takes the engine's runtime and texts as props and imports nothing of the page's runtime
 * module: a lazy chunk importing it made the bundler split React and the core out of the entry
 * into extra first-load chunks (as docs/money-input.md records for the money fields).
 */
import { Suspense, useEffect, useState } from 'react'
import { useStore } from 'zustand'
import { formatMoney, type CurrencyDisplays } from '../../../kernel/core/format'
import { gameStakes } from '../../core/game-stakes'
import { readPlayMoney } from '../../core/play-money'
import type { NodeOf } from '../../../kernel/documents/types'
import { INITIAL_CASH_OUT_AT, LazyAmountField, LazyMultiplierField } from '../amount-field-lazy'
import type { EngineRuntime, useEvaluate } from '../runtime'

/** What the page gives the game: the runtime, its texts, the locale and (a punter's) currency. */
export interface GamePlayProps {
  node: NodeOf<'game'>
  product: string
  gameId: string
  /** A guest's demo with play money. */
  demo: boolean
  runtime: EngineRuntime
  text: ReturnType<typeof useEvaluate>['text']
  locale: string
  currency: string | undefined
}

type Texts = Pick<GamePlayProps, 'text' | 'locale'>

// glyphs every system font has (no emoji font on many phones and CI machines)
const SYMBOLS: Record<string, string> = { cherry: '♥', lemon: '●', plum: '♣', bell: '♪', star: '★', seven: '7' }

interface GameData {
  engine?: 'slot' | 'crash'
  /** Crash: the highest automatic cash-out target the game allows. */
  maxCashOutAt?: number
  favorite?: boolean
  title?: string
  error?: string
  /** The text key of why the launch was refused (a restriction's own text). */
  reason?: string
  /** The refusal's payload: the restriction's end date for "closed until …". */
  reasonValues?: Record<string, string | number | boolean>
}
interface RoundData {
  roundId: string
  win: number
  engine: 'slot' | 'crash'
  outcome: { reels?: string[]; multiplier?: number; crashAt?: number; cashOutAt?: number; won?: boolean }
}

function Outcome({ round, currency, displays, text, locale }: Texts & { round: RoundData | undefined; currency?: string; displays?: CurrencyDisplays }) {
  if (!round) return null
  const won = round.win > 0
  return (
    <div className="game__outcome" role="status" data-testid="game-outcome" data-round={round.roundId} data-win={round.win}>
      {round.engine === 'slot' && (
        <p className="game__reels" aria-label={(round.outcome.reels ?? []).join(' ')}>
          {(round.outcome.reels ?? []).map((s, i) => (
            <span key={i} className="game__reel">
              {SYMBOLS[s] ?? s}
            </span>
          ))}
        </p>
      )}
      {round.engine === 'crash' && (
        <p className="game__crash">
          {text('game.crashedAt')} ×{round.outcome.crashAt}
        </p>
      )}
      <p>{won ? `${text('game.win')}: ${formatMoney(round.win, locale, currency, displays)}` : text('game.lost')}</p>
    </div>
  )
}

interface BigWin {
  game: string
  multiplier: number
}

/**
 * While a game page is open its events socket is on the gambling channel (GI, subscribed once):
 * the site's big wins (`casino` messages) show as a one-line ticker. Leaving the page drops GI.
 */
function useBigWins(remoteConfig: Record<string, unknown> | undefined): BigWin | null {
  const [last, setLast] = useState<BigWin | null>(null)
  useEffect(() => {
    let stop: (() => void) | undefined
    let gone = false
    void import('../../realtime/browser').then((sockets) => {
      if (gone) return
      const socket = sockets.eventsSocket(remoteConfig)
      const stopListening = socket.onType('casino', (frame) => {
        if (frame.kind === 'bigWin' && typeof frame.game === 'string' && typeof frame.multiplier === 'number') setLast({ game: frame.game, multiplier: frame.multiplier })
      })
      socket.subscribeGambling()
      stop = () => {
        stopListening()
        socket.unsubscribeGambling()
      }
    })
    return () => {
      gone = true
      stop?.()
    }
  }, [remoteConfig])
  return last
}

/** The game as the page plays it: a punter's launch answer, or for a demo the page's game card. */
function useGame(runtime: EngineRuntime, product: string, gameId: string, demo: boolean): GameData | undefined {
  const launched = useStore(runtime.stores.screenData, (s) => s.data.game) as GameData | undefined
  const card = useStore(runtime.stores.screenData, (s) => s.data.gameInfo) as GameData | null | undefined
  useEffect(() => {
    if (!demo && product && gameId) void runtime.run([{ do: 'game.launch', with: { product, gameId } }])
  }, [demo, product, gameId]) // eslint-disable-line react-hooks/exhaustive-deps
  return demo ? (card ?? undefined) : launched
}

/** The guest's play money left, labelled as play money (never the account's balance). */
function PlayMoney({ runtime, text, locale, smallest }: Texts & { runtime: EngineRuntime; smallest: number }) {
  const left = (useStore(runtime.stores.screenData, (s) => s.data.playMoney) as number | undefined) ?? readPlayMoney() / 100
  return (
    <>
      <p className="game__demo-label" role="note" data-testid="game-demo-label">
        {text('game.demo.label')}
      </p>
      <p data-testid="game-play-money" data-amount={left}>
        {text({ key: 'game.demo.balance', values: { amount: formatMoney(left, locale) } })}
      </p>
      {left < smallest && (
        <button type="button" className="button" data-variant="secondary" onClick={() => void runtime.run([{ do: 'game.demoReset' }])} data-testid="game-demo-top-up">
          {text('game.demo.topUp')}
        </button>
      )}
    </>
  )
}

export default function GamePlay({ node, product, gameId, demo, runtime, text, locale, currency }: GamePlayProps) {
  const game = useGame(runtime, product, gameId, demo)
  const displays = useStore(runtime.stores.site, (s) => s.bootstrap?.site.currencyDisplay)
  const round = useStore(runtime.stores.screenData, (s) => s.data.round) as RoundData | undefined
  const bounds = useStore(runtime.stores.site, (s) => s.bootstrap?.site.gameStake)
  const stakes = gameStakes(bounds, node.stakes)
  const [stake, setStake] = useState<number | null>(stakes[1] ?? stakes[0])
  const [cashOutAt, setCashOutAt] = useState<number | null>(INITIAL_CASH_OUT_AT)
  const [busy, setBusy] = useState(false)
  const bigWin = useBigWins(useStore(runtime.stores.site, (s) => s.bootstrap?.remoteConfig) as Record<string, unknown> | undefined)
  if (game?.error) return <p role="alert" data-testid="game-refused">{(game.reason && text({ key: game.reason, values: game.reasonValues })) || text(`server.error.${game.error}`) || text('common.request.error')}</p>
  if (!game?.engine) return <p aria-busy="true" className="game game--loading" />
  const play = async () => {
    if (stake === null || cashOutAt === null) return
    setBusy(true)
    try {
      const crash = game.engine === 'crash' ? { cashOutAt } : {}
      await runtime.run([{ do: demo ? 'game.demoPlay' : 'game.play', with: { product, gameId, stake, ...crash } }])
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="game" data-testid={node.testId ?? 'game'} data-engine={game.engine} data-demo={demo || undefined}>
      {demo ? (
        <PlayMoney runtime={runtime} text={text} locale={locale} smallest={stakes[0] ?? 0} />
      ) : (
        <button
          type="button"
          className="button"
          data-variant="ghost"
          data-testid="game-favorite"
          aria-pressed={game.favorite === true}
          onClick={() => void runtime.run([{ do: 'game.favorite', with: { product, gameId, favorite: !game.favorite } }])}
        >
          {game.favorite ? '★' : '☆'} {text('game.favorite')}
        </button>
      )}
      <div className="game__stakes" role="radiogroup" aria-label={text('game.stake')}>
        {stakes.map((s) => (
          <button key={s} type="button" role="radio" aria-checked={s === stake} className="button" data-variant={s === stake ? 'primary' : 'secondary'} onClick={() => setStake(s)}>
            {formatMoney(s, locale, currency, displays)}
          </button>
        ))}
      </div>
      <Suspense fallback={null}>
        <LazyAmountField
          className="game__stake"
          label={text('game.stake')}
          value={stake}
          onAmount={setStake}
          locale={locale}
          currency={currency}
          displays={displays}
          preview={(amount) => runtime.t('game.willBeStaked', { amount })}
          t={runtime.t}
          testId="game-stake"
        />
        {game.engine === 'crash' && <LazyMultiplierField label={text('game.cashOutAt')} locale={locale} initial={INITIAL_CASH_OUT_AT} onValue={setCashOutAt} t={runtime.t} />}
      </Suspense>
      <button type="button" className="button" data-testid="game-play" disabled={busy || stake === null || cashOutAt === null} aria-busy={busy || undefined} onClick={() => void play()}>
        {text(game.engine === 'slot' ? 'game.spin' : 'game.play')}
      </button>
      <Outcome round={round} currency={currency} displays={displays} text={text} locale={locale} />
      {bigWin && (
        <p className="game__big-win" role="status" data-testid="game-big-win">
          {text({ key: 'game.bigWin', values: { game: bigWin.game, multiplier: bigWin.multiplier } })}
        </p>
      )}
    </section>
  )
}
