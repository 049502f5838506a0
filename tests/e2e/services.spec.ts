/**
 * The third-party services in the browser (issue 18): a visit by a punter who accepted all
 * cookies produces screen-view events at Parlay's own analytics ingest (with the analytics
 * section of the path) after asking the analytics remote config once; a login through the popup sends the fingerprint recognition link, which
 * /admin lists for that punter; a client error thrown in the built bundle shows in the admin error
 * view at its original source file and line; a replay batch is recorded with its inputs masked.
 */
import type { APIRequestContext } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, logInThroughPopup, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!

async function adminRead(request: APIRequestContext, path: string): Promise<any> {
  await adminLogInByApi(request, operator)
  return (await (await request.get(path)).json()).payload
}

test('a visit after "accept all" produces screen-view events with the path\'s analytics section at the ingest', async ({ page, baseURL, request }) => {
  await page.context().addCookies([{ name: 'ConsentCookie', value: 'all', url: baseURL! }])
  const configAsked = page.waitForRequest((r) => new URL(r.url()).pathname === '/analytics/api/2/config')
  await page.goto('/promotions')
  // the punter's first key press starts the services chunk (without one: an idle period 5 s later)
  await page.keyboard.press('Shift')
  await expect(page.locator('html[data-parlay-services="ready"]')).toBeAttached({ timeout: 15_000 })
  // spec §7 remote-config GET: asked as analytics starts, with the site's key, the keys it reads, the session
  const asked = await configAsked
  expect(Object.fromEntries(new URL(asked.url()).searchParams)).toEqual({ api_key: 'parlay-web-1', config_keys: 'AMPLITUDE_DISABLED_EVENTS', session_id: expect.stringMatching(/^[0-9]{13}$/) })
  expect((await asked.response())?.status()).toBe(200)
  // leaving the page flushes the queue at once (pagehide) instead of after 10 s
  await page.goto('/favicon.ico')
  await expect
    .poll(async () => ((await adminRead(request, '/admin/api/services/events?limit=50')) as Array<{ eventType: string; section: string }>).filter((e) => e.eventType === 'screen view').map((e) => e.section), { timeout: 20_000 })
    .toContain('promotions')
})

test('a login sends a recognition link: /admin lists the punter\'s visitor id from this browser', async ({ page, request }) => {
  await logInThroughPopup(page, 'opened@demo.parlay.test')
  await expect
    .poll(async () => ((await adminRead(request, '/admin/api/services/recognitions')).recognitions as Array<{ accountNumber: string; operationType: string }>).map((r) => `${r.accountNumber} ${r.operationType}`), { timeout: 20_000 })
    .toContain('10000001 LOGIN')
})

test('a client error thrown in the built bundle reaches the admin error view at its original source file and line', async ({ page }) => {
  await page.goto('/promotions')
  // the punter's first key press starts the services chunk (without one: an idle period 5 s later)
  await page.keyboard.press('Shift')
  await expect(page.locator('html[data-parlay-services="ready"]')).toBeAttached({ timeout: 15_000 })
  // a malformed screen event makes the services chunk's own listener throw (a TypeError in built code)
  await page.evaluate(() => window.dispatchEvent(new CustomEvent('parlay:screen-rendered', { detail: null })))
  await adminLogInByApi(page.request, operator)
  await expect
    .poll(async () => {
      const errors = (await (await page.request.get('/admin/api/services/errors?limit=20')).json()).payload as Array<{ kind: string; frames: Array<{ file: string; source?: { file: string } }> }>
      return errors.filter((e) => e.kind === 'exception').flatMap((e) => e.frames.map((f) => `${f.file.includes('/assets/') ? 'built' : 'other'} -> ${f.source?.file ?? 'unmapped'}`))
    }, { timeout: 20_000 })
    .toContain('built -> engine/services/browser.ts')
  await page.goto('/admin/services#errors')
  await expect(page.getByTestId('services-errors')).toContainText(/engine\/services\/browser\.ts:\d+:\d+/)
})

test('with replay on and all cookies accepted, a replay batch is recorded with the typed input masked and the labels readable', async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: 'ConsentCookie', value: 'all', url: baseURL! }])
  await page.goto('/join')
  // the punter's first key press starts the services chunk (without one: an idle period 5 s later)
  await page.keyboard.press('Shift')
  await expect(page.locator('html[data-parlay-replay="recording"]')).toBeAttached({ timeout: 20_000 })
  const phone = page.locator('input[type="tel"]').first()
  await phone.click()
  await phone.fill('5550123')
  await expect(phone).not.toHaveValue('')
  const typed = await phone.inputValue()
  // medium masking: a label is no secret, so support can read the form the punter saw
  const label = (await page.locator('form label').first().innerText()).replace(/\s*\*$/, '').trim()
  expect(label).not.toBe('')
  // leaving the page sends the open batch at once (pagehide) instead of after 10 s
  await page.goto('/favicon.ico')
  await adminLogInByApi(page.request, operator)
  type Event = { type: number; data?: { source?: number; text?: string } }
  const recorded = async (): Promise<Event[]> => {
    const sessions = (await (await page.request.get('/admin/api/services/replays')).json()).payload as Array<{ deviceId: string; sessionId: number }>
    const replays = await Promise.all(sessions.map(async (s) => (await (await page.request.get(`/admin/api/services/replays/${s.deviceId}/${s.sessionId}`)).json()).payload.events as Event[]))
    return replays.flat()
  }
  // rrweb's input events (incremental source 5) carry the value: asterisks only
  const maskedInputs = async () => (await recorded()).filter((e) => e.type === 3 && e.data?.source === 5 && /^\*+$/.test(e.data.text ?? '')).length
  await expect.poll(maskedInputs, { timeout: 20_000 }).toBeGreaterThan(0)
  const everything = JSON.stringify(await recorded())
  expect(everything).not.toContain(typed)
  expect(everything).not.toContain('5550123')
  expect(everything).toContain(JSON.stringify(label).slice(1, -1))
  // the tap on the field was counted and sent by beacon when the page went away (interaction summary)
  const taps = async () => ((await (await page.request.get('/admin/api/services/clicks')).json()).payload as Array<{ page: string }>).filter((c) => c.page === '/join').length
  await expect.poll(taps, { timeout: 20_000 }).toBeGreaterThan(0)
  // a guest's session is its device's only: support's view says "anonymous" (issue 30)
  await page.goto('/admin/services#replays')
  await expect(page.getByTestId('services-replays').getByTestId('services-anonymous').first()).toHaveText('anonymous')
})
