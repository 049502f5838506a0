/**
 * Jurisdiction overlays through the real server and store (issue 29, item 4; docs/overlays.md):
 * Spain and Italy get left-menu overlays through review; a later shared change that removes a menu
 * item reaches both (the old silent fork: it reached Italy but not Spain); a shared change that
 * meets an overlay is reported at submit and in review.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HEADERS } from '../../../kernel/core/contracts'
import { rawRequest } from '../../support/server'
import { type AdminClient, type TestServer, startWithReviewers } from './support'

const SHARED = 'menus/left-menu.json'
const SPAIN = 'jurisdictions/spain/menus/left-menu.json'
const ITALY = 'jurisdictions/italy/menus/left-menu.json'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient

beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers()), 60000)
afterAll(() => server?.dispose())

type Item = { name: string; label: string; loginOnly?: boolean }
const sharedMenu = () => JSON.parse(readFileSync(join(server.documentsDir, SHARED), 'utf8')) as { items: Item[] } & Record<string, unknown>
const overlay = (items: unknown[]) => JSON.stringify({ $schema: '../../../kinds/overlay.schema.json', $overlay: SHARED, kind: 'menu', id: 'left-menu', items }, null, 2)
const servedMenu = async (site: string) => (await rawRequest(server.port, { path: '/api/documents/menu/left-menu', headers: { [HEADERS.target]: site } })).json() as { items: Item[] }

async function draft(file: string, content: string): Promise<number> {
  const res = await operator.post('/admin/api/drafts', { file, content })
  expect(res.status, res.body).toBe(201)
  return res.json().payload.id as number
}
async function publish(file: string, content: string): Promise<void> {
  const id = await draft(file, content)
  expect((await operator.post(`/admin/api/versions/${id}/submit`)).status).toBe(200)
  expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'ok' })).status).toBe(200)
  expect((await operator.post(`/admin/api/versions/${id}/publish`)).status).toBe(200)
}
const review = async (id: number) => (await compliance.get(`/admin/api/versions/${id}`)).json().payload as { lint: { rule: string; severity: string; message: string; file: string }[]; diff: { findings: { rule: string; message: string; severity: string }[] } }

describe('a shared change reaches every overlay on it', () => {
  it("a new overlay is reviewed as what it changes over the shared menu, not as 'new document'", async () => {
    const id = await draft(SPAIN, overlay([{ name: 'loyalty', label: 'menu.loyalty.belarus' }]))
    const { diff } = await review(id)
    expect(diff.findings.map((f) => f.rule)).not.toContain('document.added')
    expect(diff.findings.map((f) => f.message).sort()).toEqual([
      'Spain left menu: an overlay on menus/left-menu.json: later changes of it still reach this site; what it changes:',
      'Spain left menu: item loyalty text menu.loyalty → menu.loyalty.belarus',
    ].sort())
    expect((await operator.post(`/admin/api/versions/${id}/withdraw`)).status).toBe(200)
  })

  it('Spain and Italy overlays go live through review, and each site is served shared ⊕ its overlay', async () => {
    await publish(SPAIN, overlay([{ name: 'loyalty', label: 'menu.loyalty.belarus' }]))
    await publish(ITALY, overlay([{ name: 'vipClub', $patch: 'delete' }]))
    const shared = sharedMenu().items
    const spain = await servedMenu('spain')
    expect(spain.items.map((i) => [i.name, i.label])).toEqual(shared.map((i) => [i.name, i.name === 'loyalty' ? 'menu.loyalty.belarus' : i.label]))
    expect(spain.items.find((i) => i.name === 'loyalty')!.loginOnly).toBe(true)
    expect((await servedMenu('italy')).items.map((i) => i.name)).toEqual(shared.map((i) => i.name).filter((n) => n !== 'vipClub'))
  })

  it('a published shared change that removes a menu item reaches Spain and Italy (both overlays), and the review says so', async () => {
    const menu = sharedMenu()
    const id = await draft(SHARED, JSON.stringify({ ...menu, items: menu.items.filter((i) => i.name !== 'whatsNew') }, null, 2))
    const { diff } = await review(id)
    const messages = diff.findings.map((f) => f.message)
    for (const site of ['Spain', 'Italy', 'Belarus']) expect(messages).toContain(`${site} left menu: item whatsNew removed`)
    expect(diff.findings.filter((f) => f.rule === 'overlay.conflict')).toEqual([])
    expect((await operator.post(`/admin/api/versions/${id}/submit`)).status).toBe(200)
    expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'ok' })).status).toBe(200)
    expect((await operator.post(`/admin/api/versions/${id}/publish`)).status).toBe(200)

    // independent of the merge: the shared file's items, by hand
    const names = menu.items.map((i) => i.name).filter((n) => n !== 'whatsNew')
    const spain = await servedMenu('spain')
    expect(spain.items.map((i) => i.name)).toEqual(names)
    expect(spain.items.find((i) => i.name === 'loyalty')!.label).toBe('menu.loyalty.belarus')
    expect((await servedMenu('italy')).items.map((i) => i.name)).toEqual(names.filter((n) => n !== 'vipClub'))
    expect((await servedMenu('curacao')).items.map((i) => i.name)).toEqual(names)
    // the left menu is on every page of every site: its submit and publish gates render them all
    // (seconds each on a quiet 2-core machine), more than the default 20 s under load
  }, 90_000)
})

describe('a shared change that meets an overlay is reported at submit', () => {
  it("changing the label Spain's overlay also changes is submitted with a warning that names Spain's overlay, shown in review", async () => {
    const menu = sharedMenu()
    const edited = { ...menu, items: menu.items.map((i) => (i.name === 'loyalty' ? { ...i, label: 'menu.promotions' } : i)) }
    const id = await draft(SHARED, JSON.stringify(edited, null, 2))
    const submitted = await operator.post(`/admin/api/versions/${id}/submit`)
    expect(submitted.status).toBe(200)
    const { lint, diff } = await review(id)
    const message = "Spain's overlay changes /items[loyalty]/label, which this shared change also changes: Spain keeps its own (shared document menus/left-menu.json)"
    expect(lint).toContainEqual(expect.objectContaining({ file: SPAIN, rule: 'overlay/conflict', severity: 'warning', message }))
    expect(diff.findings).toContainEqual(expect.objectContaining({ rule: 'overlay.conflict', severity: 'warning', message: `Spain left menu: ${message}` }))
    // Italy's overlay removes another item: no conflict for Italy
    expect(lint.filter((f) => f.file === ITALY)).toEqual([])
    expect((await operator.post(`/admin/api/versions/${id}/withdraw`)).status).toBe(200)
  })

  it("removing the item Spain's overlay changes is refused at submit (the overlay would add back half an item)", async () => {
    const menu = sharedMenu()
    const id = await draft(SHARED, JSON.stringify({ ...menu, items: menu.items.filter((i) => i.name !== 'loyalty') }, null, 2))
    const submitted = await operator.post(`/admin/api/versions/${id}/submit`)
    expect(submitted.status).toBe(422)
    expect(submitted.json()).toMatchObject({ status: 'ERROR', errorCode: 'LINT_FAILED' })
    expect(submitted.json().payload).toContainEqual(expect.objectContaining({ file: SPAIN, severity: 'error', rule: 'overlay/conflict', message: expect.stringContaining("this shared change removes /items[loyalty], which Spain's overlay changes") }))
    // nothing went live: Spain still has its loyalty item, whole
    expect((await servedMenu('spain')).items.find((i) => i.name === 'loyalty')).toMatchObject({ label: 'menu.loyalty.belarus', loginOnly: true })
  })

  it('an overlay that names a shared document that does not exist is refused at submit with its file and why', async () => {
    const id = await draft('jurisdictions/denmark/menus/left-menu.json', JSON.stringify({ $overlay: 'menus/no-such-menu.json', kind: 'menu', id: 'left-menu', items: [] }))
    const submitted = await operator.post(`/admin/api/versions/${id}/submit`)
    expect(submitted.status).toBe(422)
    expect(submitted.json().payload).toContainEqual(expect.objectContaining({ file: 'jurisdictions/denmark/menus/left-menu.json', pointer: '/$overlay', severity: 'error', message: expect.stringContaining('menus/no-such-menu.json is not in the set') }))
  })
})
