/**
 * The experiment client's web builder in the page (spec §4, §6, §7; issue 34): a device in the
 * web-builder experiment's test group asks pages.json for its group and the casino lobby banner
 * changes as the experiment document's pages say; a device in the control group asks too and its
 * banner is the document's own; `?editor=start` opens editor mode (nothing applied until a group
 * is chosen in the editor bar). All under the site's CSP: no violation is reported.
 */
import type { Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SCHEMAS_DIR } from '../support/server'
import { SITES, siteDocument, siteHost } from '../support/sites'
import { expect, test } from './fixtures'

const doc = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'experiments', 'experiments.json'), 'utf8'))
const boldPage = doc.pages.find((p: { experiment: string; group: string }) => p.experiment === 'lobbyBanner' && p.group === 'bold')
const boldTitle = boldPage.rules.find((r: { path: string }) => r.path === '/casino/lobby').contentParams.text as string
const groups = doc.experiments.find((e: { name: string }) => e.name === 'lobbyBanner').groups.map((g: { name: string }) => g.name) as string[]

async function inGroup(page: Page, groupIndex: number) {
  await page.addInitScript((index) => {
    window.localStorage.setItem('sigma_forced_experiments', JSON.stringify([{ experimentId: 'lobbyBanner', groupIndex: index }]))
    const w = window as unknown as { cspViolations: string[] }
    w.cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`))
  }, groupIndex)
  const asked: string[] = []
  page.on('request', (request) => void (request.url().includes('/experiments/api/pages.json') && asked.push(request.headers().group ?? '')))
  return asked
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
const bannerTitle = (page: Page) => page.getByTestId('lobby-banner').locator('.banner__title')

test('a device in the test group gets its pages.json and sees the banner the pages say; no CSP violation', async ({ page }) => {
  const asked = await inGroup(page, groups.indexOf('bold'))
  await page.goto('/casino/lobby')
  await expect.poll(() => asked).toEqual(['bold'])
  await expect(bannerTitle(page)).toHaveText(boldTitle)
  await expect(bannerTitle(page)).toHaveCSS('font-weight', '700') // the page's global CSS, adopted
  // the rule's HTML, through the sanitiser fetched for it
  await expect(page.getByTestId('lobby-banner').locator('.banner__body strong')).toHaveText('Weekly cashback')
  expect(await violations(page)).toEqual([])
})

test('a device in the control group asks for its pages (none) and sees the banner unchanged', async ({ page }) => {
  const asked = await inGroup(page, groups.indexOf('control'))
  await page.goto('/casino/lobby')
  await expect.poll(() => asked).toEqual(['control'])
  await expect(bannerTitle(page)).toBeVisible()
  await expect(bannerTitle(page)).not.toHaveText(boldTitle)
})

test('?editor=start opens editor mode: the bar lists the groups, nothing is applied until one is chosen, then its pages show', async ({ page }) => {
  const asked = await inGroup(page, groups.indexOf('bold'))
  await page.goto('/casino/lobby?editor=start')
  const editor = page.getByTestId('experiment-editor')
  await expect(editor).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('data-experiment-editor', 'start')
  await expect(editor.getByRole('button')).toHaveText(groups.map((g) => `lobbyBanner: ${g}`))
  await expect(bannerTitle(page)).not.toHaveText(boldTitle)
  expect(asked).toEqual([])
  await editor.getByRole('button', { name: 'lobbyBanner: bold' }).click()
  await expect(bannerTitle(page)).toHaveText(boldTitle)
  expect(await violations(page)).toEqual([])
})

// ADR 0090: the pages' words are English; on every other site the test group sees them in the
// site's language (or its own banner), never English, and the page's CSS still applies.
for (const id of SITES.filter((site) => siteDocument(site).locales[0] !== 'en')) {
  test(`${id}: a device in the test group sees the web builder's banner in the site's language, not English`, async ({ page, baseURL }) => {
    const locale = siteDocument(id).locales[0]
    const rule = boldPage.rules.find((r: { path: string }) => r.path === '/casino/lobby').contentParams
    const asked = await inGroup(page, groups.indexOf('bold'))
    await page.goto(`http://${siteHost(id)}:${new URL(baseURL!).port}/casino/lobby`)
    await expect.poll(() => asked).toEqual(['bold'])
    await expect(bannerTitle(page)).toHaveText(rule.translations[locale].text)
    await expect(bannerTitle(page)).toHaveCSS('font-weight', '700')
    const body = boldPage.rules.find((r: { path: string }) => r.path === '/casino/*').contentParams.translations[locale].contentHtml as string
    await expect(page.getByTestId('lobby-banner').locator('.banner__body')).toHaveText(body.replace(/<[^>]+>/g, ''))
    expect(await violations(page)).toEqual([])
  })
}
