/**
 * The footer on every site (spec §2 footer, §3 page settings: payment systems, social networks,
 * compliance icons), at 360×740 in the site's own language: the age in the notice and in the age
 * mark is the site's jurisdiction document's minimum age (Belarus reads 21+, never 18+); the
 * licence mark is the site's own regulator, linked to its page in a new window without opener; every
 * badge is named in the site's language (no raw text key), and the badges fit the phone's width.
 * Oracles: the jurisdiction documents and the i18n files read from disk, and the regulator each
 * site is licensed by, written here.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SITES, siteDocument, siteHost } from '../support/sites'
import { expect, test } from './fixtures'

/** The mark of the regulator each site names (null: the site shows no licence mark). */
const REGULATOR: Record<string, string | null> = {
  curacao: 'CGA',
  spain: 'DGOJ',
  italy: 'ADM',
  denmark: 'Spillemyndigheden',
  alderney: 'AGCC',
  nigeria: 'NLRC',
  russia: null,
  belarus: null,
}

const I18N = join(import.meta.dirname, '..', '..', 'schemas', 'i18n')
/** Every text of a locale, merged from its i18n files. */
function texts(locale: string): Record<string, string> {
  const files = readdirSync(I18N).filter((f) => f === `${locale}.json` || f.startsWith(`${locale}-`))
  return Object.assign({}, ...files.map((f) => JSON.parse(readFileSync(join(I18N, f), 'utf8')).resources))
}

test.use({ viewport: { width: 360, height: 740 } })

for (const id of SITES) {
  test(`${id}: the footer's age is the jurisdiction's minimum age, its licence mark is its own regulator's, every badge is named in its language and fits 360 px`, async ({ page, baseURL }) => {
    expect(id in REGULATOR, `name ${id}'s regulator in this test`).toBe(true)
    const site = siteDocument(id)
    const age = site.minimumAge as number
    const say = texts(site.defaultLocale)
    await page.goto(`http://${siteHost(id)}:${new URL(baseURL!).port}/`)
    const footer = page.locator('footer.app-footer')
    const notice = footer.locator('.app-footer__notice')
    await expect(notice).toHaveText(say['footer.notice']!.replaceAll('{{age}}', String(age)))
    const ageMark = footer.locator('[data-badge="age"]')
    await expect(ageMark).toHaveText(`${age}+`)
    await expect(ageMark).toHaveAccessibleName(say['footer.badge.age']!.replaceAll('{{age}}', String(age)))
    const licence = footer.locator('[data-badge="licence"]')
    if (REGULATOR[id] === null) await expect(licence).toHaveCount(0)
    else {
      await expect(licence).toHaveText(REGULATOR[id]!)
      const href = await licence.getAttribute('href')
      if (href !== null) {
        expect(href).toMatch(/^https:\/\//)
        await expect(licence).toHaveAttribute('target', '_blank')
        await expect(licence).toHaveAttribute('rel', /noopener/)
      }
    }
    await expect(footer.getByRole('heading', { name: say['footer.badges.compliance']! })).toBeVisible()
    const badges = footer.locator('[data-badge]')
    for (const badge of await badges.all()) {
      const name = (await badge.getAttribute('aria-label')) ?? ''
      expect(name.length, 'every badge has a name').toBeGreaterThan(0)
      expect(name, 'no raw text key').not.toMatch(/^footer\./)
    }
    const width = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="footer-badges"]')!.getBoundingClientRect()
      return { right: box.right, page: document.documentElement.scrollWidth }
    })
    expect(width.right).toBeLessThanOrEqual(360)
    expect(width.page).toBeLessThanOrEqual(360)
  })
}
