/**
 * The census rows of the form popups (spec §2 modal kinds select, date, calendar; issue 34 item 9),
 * used by census.spec.ts on the page it already has loaded: the site's sign-up is opened by an
 * in-app navigation, its first step filled (an example mobile number of the site's country, or an
 * e-mail) so the second opens, and every popup field met on the way, or on a page the punter
 * visits, is opened by a tap and checked: a dialog named by the field's label in the page's
 * language, no raw key, the date popup's lists named in that language, within the 360 px screen,
 * closed by Escape with focus back on the field. No cold load per popup.
 */
import type { Page } from '@playwright/test'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { getExampleNumber, type CountryCode } from 'libphonenumber-js/max'
import examples from 'libphonenumber-js/mobile/examples'

const SCHEMAS = resolve(import.meta.dirname, '../../schemas')
const WIDGET_KINDS: Record<string, string> = { selectPopup: 'select', datePopup: 'date', calendarPopup: 'calendar' }

/** The popup kinds a site's flow document asks for (its own file and, for an overlay, the base it
 * changes): what the census must have met when it walked that flow. */
export function flowPopupKinds(siteId: string, flow: string): string[] {
  const own = join(SCHEMAS, 'jurisdictions', siteId, 'flows', `${flow}.json`)
  const base = join(SCHEMAS, 'bases', 'flows', `${flow}.json`)
  const ownText = existsSync(own) ? readFileSync(own, 'utf8') : ''
  const text = ownText + (ownText.includes('"$overlay"') && existsSync(base) ? readFileSync(base, 'utf8') : '')
  return Object.entries(WIDGET_KINDS)
    .filter(([widget]) => text.includes(`"ui:widget": "${widget}"`))
    .map(([, kind]) => kind)
}

interface Texts {
  /** A shipped text of the page's locale (the oracle for a name), or undefined where none exists. */
  text(key: string): string | undefined
  rawKeys(text: string): string[]
  englishWords(text: string): string[]
}

interface Seen {
  kind: string
  title: string
  label: string
  text: string
  lists: string[]
  closeName: string
  fits: boolean
}

const FIELDS = 'main button.form-input[aria-haspopup="dialog"]'
const FLOW = 'main section.form-flow[data-step]'

/** Opens one popup field by a tap; answers what the dialog shows (null when none opened). */
async function openAndRead(page: Page, index: number): Promise<Seen | null> {
  const field = page.locator(FIELDS).nth(index)
  await field.scrollIntoViewIfNeeded()
  await field.click()
  const dialog = page.locator('.popup-layer > .popup[role="dialog"][aria-modal="true"]').last()
  if (!(await dialog.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false))) return null
  const label = await field.evaluate((el) => (document.querySelector(`label[for="${el.id}"]`)?.textContent ?? '').replace(/\s*\*\s*$/, '').trim())
  return dialog.evaluate((el, label) => {
    const named = (id: string | null) => (id ? (document.getElementById(id)?.textContent ?? '').trim() : '')
    const box = el.getBoundingClientRect()
    return {
      kind: (el as HTMLElement).dataset.modal ?? '',
      title: named(el.getAttribute('aria-labelledby')),
      label,
      text: (el as HTMLElement).innerText,
      lists: [...el.querySelectorAll('[role="listbox"][aria-labelledby]')].map((list) => named(list.getAttribute('aria-labelledby'))),
      closeName: el.querySelector('.popup__close')?.getAttribute('aria-label') ?? '',
      fits: box.left >= 0 && box.right <= window.innerWidth + 0.5 && el.scrollWidth <= el.clientWidth,
    }
  }, label)
}

/** What is wrong with one opened popup, in the census's words. */
function judge(seen: Seen, texts: Texts, locale: string): string[] {
  const problems: string[] = []
  const name = `the ${seen.kind} popup of "${seen.label}"`
  if (!seen.title || seen.title !== seen.label) problems.push(`${name} is called "${seen.title}", not by its field's label`)
  for (const key of texts.rawKeys(seen.text)) problems.push(`${name} shows a raw key: ${key}`)
  const close = texts.text('common.close')
  if (close && seen.closeName !== close) problems.push(`${name}: its close button is "${seen.closeName}", the ${locale} text is "${close}"`)
  if (seen.kind === 'date') {
    const expected = ['form.date.day', 'form.date.month', 'form.date.year'].map((key) => texts.text(key) ?? key).sort()
    if (JSON.stringify([...seen.lists].sort()) !== JSON.stringify(expected)) problems.push(`${name} names its lists ${JSON.stringify(seen.lists)}, the ${locale} texts are ${JSON.stringify(expected)}`)
  }
  if (locale !== 'en' && texts.englishWords(seen.text).length > 2) problems.push(`${name} is in English: ${texts.englishWords(seen.text).join(', ')}`)
  if (!seen.fits) problems.push(`${name} is wider than the 360 px screen`)
  return problems
}

/** Every popup field now on the page, opened, checked and closed. Answers the kinds seen and the problems. */
export async function checkPopupFields(page: Page, texts: Texts, locale: string): Promise<{ kinds: string[]; problems: string[] }> {
  const kinds: string[] = []
  const problems: string[] = []
  const count = await page.locator(FIELDS).count()
  for (let i = 0; i < count; i++) {
    const seen = await openAndRead(page, i)
    if (!seen) {
      problems.push(`the popup field ${i + 1} opens no dialog when tapped`)
      continue
    }
    kinds.push(seen.kind)
    problems.push(...judge(seen, texts, locale))
    await page.keyboard.press('Escape')
    const closed = await page.locator('.popup-layer > .popup[role="dialog"][data-modal]').waitFor({ state: 'detached', timeout: 10_000 }).then(() => true, () => false)
    if (!closed) problems.push(`the ${seen.kind} popup of "${seen.label}" stays open after Escape`)
    else if (!(await page.locator(FIELDS).nth(i).evaluate((el) => el === document.activeElement))) problems.push(`focus does not return to "${seen.label}" when its ${seen.kind} popup closes`)
  }
  return { kinds, problems }
}

/** The sign-up's first step filled as a new punter of the site's country would, then Next. */
async function fillFirstStep(page: Page, country: string, countryName: string | undefined) {
  const form = page.locator(FLOW).first()
  const tel = form.locator('input[type="tel"]')
  if (await tel.count()) await tel.fill(String(getExampleNumber(country as CountryCode, examples)?.nationalNumber ?? ''))
  const email = form.locator('input[type="email"], input[autocomplete="email"]')
  if (await email.count()) await email.first().fill(`census.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`)
  await form.locator('input[type="password"]').first().fill('a quiet orange lantern 42')
  const countries = form.locator('[data-field="countryId"] select')
  if ((await countries.count()) && countryName) await countries.selectOption({ label: countryName })
  await form.getByTestId('form-submit').click()
}

/**
 * The sign-up's popups: /join reached by an in-app navigation (`visit`), the fields of its first
 * step checked, the step filled and left, the fields of the second checked. Answers the kinds seen
 * and the problems (a first step that does not lead on is one).
 */
/** Popups the earlier routes left open (a login-only page's login popup, a failed confirmation's
 * notice) are closed as a punter does, by Escape, so the sign-up underneath can be used. */
async function closeSitePopups(page: Page) {
  const open = page.locator('[role="dialog"][data-popup-id]')
  for (let i = 0; i < 6 && (await open.count()) > 0; i++) {
    await page.keyboard.press('Escape')
    await open.first().waitFor({ state: 'detached', timeout: 2_000 }).catch(() => undefined)
  }
}

export async function checkSignUpPopups(page: Page, visit: () => Promise<void>, site: { country: string }, texts: Texts, locale: string): Promise<{ flow: string; kinds: string[]; problems: string[] }> {
  await closeSitePopups(page)
  await visit()
  await closeSitePopups(page)
  const form = page.locator(FLOW).first()
  if (!(await form.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false))) return { flow: '', kinds: [], problems: ['the sign-up page shows no form'] }
  const step = await form.getAttribute('data-step')
  // the section is named after its flow: join-form-phone walks signup-phone
  const flow = `signup-${((await form.getAttribute('data-testid')) ?? '').replace(/^join-form-/, '')}`
  const first = await checkPopupFields(page, texts, locale)
  await fillFirstStep(page, site.country, texts.text(`country.${site.country}`))
  const moved = await page
    .waitForFunction((before) => document.querySelector('main section.form-flow[data-step]')?.getAttribute('data-step') !== before, step, { timeout: 15_000 })
    .then(() => true, () => false)
  if (!moved) return { flow, kinds: first.kinds, problems: [...first.problems, `the sign-up's first step did not lead on: ${(await form.innerText()).replace(/\s+/g, ' ').slice(0, 300)}`] }
  const second = await checkPopupFields(page, texts, locale)
  return { flow, kinds: [...first.kinds, ...second.kinds], problems: [...first.problems, ...second.problems] }
}
