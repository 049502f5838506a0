/**
 * A lobby game's page (issue 14 item 6, node kind `game`). A guest sees "Log in to play" and, where
 * the site's jurisdiction allows demo play (the node's `demo`: the game card's `demo`), "Play for
 * fun", or why he cannot (issue 31); that is what the server renders. The game itself — reels,
 * stakes, outcomes, for a punter or a guest's demo — is a chunk of its own (./game-play.tsx),
 * loaded when it is played: no other page's first load pays for it.
 */
import { lazy, Suspense, useState } from 'react'
import { currencyCode } from '../../../kernel/core/format'
import type { NodeOf } from '../../../kernel/documents/types'
import { usePunterSocket } from '../punter-socket'
import { useEvaluate, useRuntime } from '../runtime'

const GamePlay = lazy(() => import('./game-play'))

export function GameNode({ node }: { node: NodeOf<'game'> }) {
  const runtime = useRuntime()
  const { value, text, ctx } = useEvaluate()
  usePunterSocket() // a punter's balance follows accountUpdate (a win, another tab or device)
  const [demo, setDemo] = useState(false)
  const product = String(value(node.product) ?? '')
  const gameId = String(value(node.gameId) ?? '')
  const loggedIn = ctx.session.status === 'punter'
  if (loggedIn || demo)
    return (
      <Suspense fallback={<p aria-busy="true" className="game game--loading" />}>
        <GamePlay
          key={loggedIn ? 'punter' : 'demo'}
          {...{ node, product, gameId, runtime, text }}
          demo={!loggedIn}
          locale={ctx.site.locale}
          // play money has no currency: its amounts read as plain numbers beside the "play money" label
          currency={loggedIn ? currencyCode(ctx.user.currency) : undefined}
        />
      </Suspense>
    )
  const demoAllowed = node.demo !== undefined && value(node.demo) === true
  return (
    <div className="game__guest">
      <button type="button" className="button" data-testid="game-login" onClick={() => void runtime.run([{ do: 'nav.go', with: { to: '/login' } }])}>
        {text('game.loginToPlay')}
      </button>
      {demoAllowed && (
        <button type="button" className="button" data-variant="secondary" data-testid="game-demo" onClick={() => setDemo(true)}>
          {text('game.demo.play')}
        </button>
      )}
      {node.demo !== undefined && !demoAllowed && (
        <p role="note" data-testid="game-demo-refused">
          {text('game.demo.notAllowed')}
        </p>
      )}
    </div>
  )
}
