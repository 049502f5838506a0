/**
 * Issue 15 items 4–5 in Chromium at phone size: a promotion an operator publishes through review
 * (draft → lint gate → a second person's approval → publish, driven through the admin API; the
 * admin page itself is admin.spec.ts's subject) is on a punter's /casino/promotions and opens its
 * own page. The punter logs in through the API (the login is not the subject).
 */
import type { APIRequestContext } from '@playwright/test'
import { request } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, logInByApi, test, type StaffLogin } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.role === 'operator')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!

async function admin(baseURL: string, who: StaffLogin) {
  const api = await request.newContext({ baseURL })
  const login = await adminLogInByApi(api, who)
  const csrf = (await login.json()).payload.csrf as string
  const post = async (path: string, data?: unknown) => api.post(path, { headers: { 'x-csrf-token': csrf }, ...(data === undefined ? {} : { data }) })
  return { api, post }
}

const LOCALES = ['en', 'ru', 'be', 'es', 'pt', 'da', 'it']
const promotion = {
  $schema: '../kinds/promotion.schema.json',
  kind: 'promotion',
  id: 'casino-midnight-spins',
  product: 'casino',
  startsAt: '2026-01-01T00:00:00Z',
  endsAt: '2030-01-01T00:00:00Z',
  prize: { amount: 250, currency: 'EUR' },
  texts: Object.fromEntries(LOCALES.map((l) => [l, { title: 'Midnight spins', body: 'Fifty free spins every night at midnight.', terms: 'One set of spins a night.' }])),
}

test('a promotion an operator publishes through review is seen by a punter on /casino/promotions', async ({ page, server }) => {
  test.slow() // two lint-gate runs over every document on a busy machine
  await page.setViewportSize({ width: 360, height: 740 })
  const op = await admin(server.url, operator)
  const co = await admin(server.url, compliance)
  let api: APIRequestContext[] = [op.api, co.api]
  try {
    const draft = await op.post('/admin/api/drafts', { file: 'promotions/casino-midnight-spins.json', content: JSON.stringify(promotion, null, 2) })
    expect(draft.status()).toBe(201)
    const id = (await draft.json()).payload.id as number
    expect((await op.post(`/admin/api/versions/${id}/submit`)).status()).toBe(200)

    // in review: not live yet. The punter has set a reality-check interval: any other is asked to
    // set one on entering casino (the jurisdiction's reality-check rule), a popup over the page
    await logInByApi(page, 'reality@demo.parlay.test', '/casino/promotions')
    const cards = page.getByTestId('promotions')
    await expect(cards).toContainText('Casino welcome package', { timeout: 0 })
    await expect(cards).not.toContainText('Midnight spins')

    expect((await co.post(`/admin/api/versions/${id}/approve`, { comment: 'Terms checked.' })).status()).toBe(200)
    expect((await op.post(`/admin/api/versions/${id}/publish`)).status()).toBe(200)

    await page.reload()
    await expect(cards).toContainText('Midnight spins')
    await cards.getByText('Midnight spins').click()
    await expect(page).toHaveURL(/\/promotions\/casino-midnight-spins$/)
    await expect(page.getByTestId('page-title')).toHaveText('Midnight spins')
    await expect(page.getByTestId('promotion-body')).toHaveText('Fifty free spins every night at midnight.')
    await expect(page.getByTestId('promotion-prize')).toContainText('250')
  } finally {
    await Promise.all(api.map((a) => a.dispose()))
    api = []
  }
})
