/**
 * A rollback is four-eyes, in the studio (issue 29 item 7): the operator asks for a rollback of
 * Spain's sign-up; nothing changes on the site until compliance, in the studio's reviews →
 * Rollbacks, approves it; then Spain's site serves the seeded document again. The oracle: the
 * document Spain's site serves, compared with the git file's value.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!
const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'

async function signedIn(request: APIRequestContext, who: typeof operator): Promise<(method: 'GET' | 'POST', path: string, data?: unknown) => Promise<any>> {
  const csrf = ((await (await adminLogInByApi(request, who)).json()) as { payload: { csrf: string } }).payload.csrf
  return async (method, path, data) => {
    const res = method === 'GET' ? await request.get(path) : await request.post(path, { headers: { 'x-csrf-token': csrf }, data: data ?? {} })
    return { ...((await res.json()) as object), http: res.status() }
  }
}

test('an operator asks for a rollback; it goes live only when compliance approves it in the studio', async ({ browser, server }) => {
  const opContext = await browser.newContext({ baseURL: server.url })
  const coContext = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 1000 } })
  const op = await signedIn(opContext.request, operator)
  const co = await signedIn(coContext.request, compliance)
  const spainTitle = async () => ((await (await opContext.request.get('/api/documents/flow/signup-email', { headers: { host: new URL(server.url).host.replace(/^[^:]+/, 'spain.localhost') } })).json()) as { title: string }).title

  // a published change: the flow's title key
  const seeded = await spainTitle()
  const overlay = JSON.parse(readFileSync(join(server.documentsDir, SPAIN_SIGNUP), 'utf8'))
  const draft = await op('POST', '/admin/api/drafts', { file: SPAIN_SIGNUP, content: JSON.stringify({ ...overlay, title: 'signup.step.personal' }) })
  expect(draft.http).toBe(201)
  expect((await op('POST', `/admin/api/versions/${draft.payload.id}/submit`)).http).toBe(200)
  expect((await co('POST', `/admin/api/versions/${draft.payload.id}/approve`, { comment: 'ok' })).http).toBe(200)
  expect((await op('POST', `/admin/api/versions/${draft.payload.id}/publish`)).http).toBe(200)
  expect(await spainTitle()).toBe('signup.step.personal')

  // the operator asks: nothing changes yet
  const history = (await op('GET', `/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).payload.history as { id: number; origin: string }[]
  const asked = await op('POST', '/admin/api/rollback', { file: SPAIN_SIGNUP, version: history.find((v) => v.origin === 'seed')!.id, reason: 'the old title' })
  expect(asked.http).toBe(202)
  expect(await spainTitle()).toBe('signup.step.personal')

  // compliance approves it in the studio
  const page = await coContext.newPage()
  await page.goto('/admin/studio?view=releases')
  await page.getByTestId('rollbacks-open').click()
  const row = page.getByTestId('rollback-row').filter({ hasText: SPAIN_SIGNUP })
  await expect(row).toHaveAttribute('data-kind', 'request')
  await expect(row).toContainText('operator@parlay.test')
  await row.getByTestId('rollback-approve').click()
  await expect(page.getByTestId('rollback-notice')).toHaveText(`Rollback #${asked.payload.id} approved: it is live.`)
  await expect(page.getByTestId('rollback-row').filter({ hasText: SPAIN_SIGNUP })).toHaveCount(0)
  expect(await spainTitle()).toBe(seeded)
  await opContext.close()
  await coContext.close()
})
