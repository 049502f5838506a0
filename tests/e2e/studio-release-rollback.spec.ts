/**
 * A release's rollback is four-eyes, in the studio (issue 29 item 7): the operator opens a published
 * release and asks for its rollback (typing a reason, clicking); nothing changes on Spain's site
 * until compliance approves it in Rollbacks; then both texts are the seeded ones again. The oracle:
 * the texts Spain's site serves, compared with the git files. Rules and refusals:
 * tests/http/admin/release-rollback-four-eyes.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!
const LABELS = 'i18n/en-signup.json'
const POPUP_TEXTS = 'i18n/en-auth.json'

async function signedIn(request: APIRequestContext, who: typeof operator): Promise<(method: 'GET' | 'POST', path: string, data?: unknown) => Promise<any>> {
  const csrf = ((await (await adminLogInByApi(request, who)).json()) as { payload: { csrf: string } }).payload.csrf
  return async (method, path, data) => {
    const res = method === 'GET' ? await request.get(path) : await request.post(path, { headers: { 'x-csrf-token': csrf }, data: data ?? {} })
    return { ...((await res.json()) as object), http: res.status() }
  }
}

test('an operator asks for a release rollback in the studio; it goes live only when compliance approves it', async ({ browser, server }) => {
  test.slow() // four lint-gate runs over every document (submit, approve, publish, rollback) on a busy machine
  const opContext = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 1000 } })
  const coContext = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 1000 } })
  const op = await signedIn(opContext.request, operator)
  const co = await signedIn(coContext.request, compliance)
  const spainHost = new URL(server.url).host.replace(/^[^:]+/, 'spain.localhost')
  const texts = async () => {
    const all = ((await (await coContext.request.get('/api/i18n/en', { headers: { host: spainHost } })).json()) as { resources: Record<string, string> }).resources
    return [all['signup.field.email'], all['auth.login.title']]
  }
  const seeded = [LABELS, POPUP_TEXTS].map((file, i) => JSON.parse(readFileSync(join(server.documentsDir, file), 'utf8')).resources[i === 0 ? 'signup.field.email' : 'auth.login.title'])

  // a published release of two texts
  const versions: number[] = []
  for (const [file, key, text] of [[LABELS, 'signup.field.email', 'Your e-mail'], [POPUP_TEXTS, 'auth.login.title', 'Welcome back']]) {
    const doc = JSON.parse(readFileSync(join(server.documentsDir, file), 'utf8'))
    doc.resources[key] = text
    versions.push((await op('POST', '/admin/api/drafts', { file, content: JSON.stringify(doc, null, 2) })).payload.id)
  }
  const release = (await op('POST', '/admin/api/releases', { title: 'Friendlier texts', versions })).payload.id as number
  expect((await op('POST', `/admin/api/releases/${release}/submit`)).http).toBe(200)
  expect((await co('POST', `/admin/api/releases/${release}/approve`, { comment: 'ok' })).http).toBe(200)
  expect((await co('POST', `/admin/api/releases/${release}/publish`)).http).toBe(200)
  expect(await texts()).toEqual(['Your e-mail', 'Welcome back'])

  // the operator asks in the studio: nothing changes yet
  const page = await opContext.newPage()
  await page.goto('/admin/studio?view=releases')
  await page.getByTestId('release-row').filter({ hasText: 'Friendlier texts' }).click()
  await expect(page.getByTestId('release')).toHaveAttribute('data-state', 'published')
  await page.getByTestId('release-rollback-reason').fill('Legal wants the old words')
  await expect(page.getByTestId('release-rollback-emergency')).toBeEnabled()
  await page.getByTestId('release-rollback').click()
  await expect(page.getByTestId('release-notice')).toContainText('goes live when a second person approves it')
  await expect(page.getByTestId('release')).toHaveAttribute('data-state', 'published')
  expect(await texts()).toEqual(['Your e-mail', 'Welcome back'])
  await opContext.close()

  // compliance approves it in Rollbacks: both texts are the seeded ones again
  const review = await coContext.newPage()
  await review.goto('/admin/studio?view=releases')
  await review.getByTestId('rollbacks-open').click()
  const row = review.getByTestId('rollback-row').filter({ hasText: `release/${release}` })
  await expect(row).toHaveAttribute('data-kind', 'request')
  await expect(row).toContainText('Legal wants the old words')
  await row.getByTestId('rollback-approve').click()
  await expect(review.getByTestId('rollback-notice')).toContainText('approved: it is live')
  await expect(review.getByTestId('rollback-row').filter({ hasText: `release/${release}` })).toHaveCount(0)
  expect(await texts()).toEqual(seeded)
  await coContext.close()
})
