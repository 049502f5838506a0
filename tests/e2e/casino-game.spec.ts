/**
 * A game page shows the game's declared return to player, as regulated sites must (issue 28 item
 * 3), and is titled with the game (issue 31): at phone size (360×740), to a guest before play and
 * to a punter after launch, in English and in Spanish (a decimal comma and a spaced percent sign:
 * the locale's own way of writing it). The figures are the game documents' (schemas/games/).
 */
import { expect, logInByApi, test } from './fixtures'
import { siteUrl } from './signup-helpers'

test('English: a guest and then a punter see “Return to player 94.50%” on Book of Ra’s page, titled Book of Ra', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await page.goto('/casino/game?product=casino&id=book-of-ra')
  await expect(page.getByTestId('page-title')).toHaveText('Book of Ra')
  await expect(page).toHaveTitle(/^Book of Ra · /)
  const rtp = page.getByTestId('game-return-to-player')
  await expect(rtp).toHaveText('Return to player 94.50%')
  await expect(rtp).toBeInViewport()

  // a reality-check interval is set: no prompt covers the game on entering casino
  await logInByApi(page, 'reality@demo.parlay.test', '/casino/game?product=casino&id=book-of-ra')
  await expect(page.getByTestId('game')).toHaveAttribute('data-engine', 'slot')
  await expect(rtp).toHaveText('Return to player 94.50%')
  await expect(rtp).toBeInViewport()
})

test('Spanish: a Spanish punter sees “Retorno al jugador 96,50 %” on Starburst Deluxe’s page, titled with the game', async ({ page, context, baseURL }) => {
  const spain = siteUrl(baseURL!, 'spain', '/')
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: spain }])
  await logInByApi(page, 'spain@demo.parlay.test', siteUrl(baseURL!, 'spain', '/casino/game?product=casino&id=starburst-deluxe'))
  await expect(page.getByTestId('game')).toHaveAttribute('data-engine', 'slot')
  await expect(page.getByTestId('page-title')).toHaveText('Starburst Deluxe')
  await expect(page).toHaveTitle(/^Starburst Deluxe · /)
  // es writes the percent sign after a (no-break) space and the decimals after a comma
  const rtp = page.getByTestId('game-return-to-player')
  await expect(rtp).toHaveText(/^Retorno al jugador 96,50\s%$/)
  await expect(rtp).toBeInViewport()
})
