/**
 * Documents and their versions in the admin API: the reads (the published set, one document's
 * history, the versions list, one version with its lint, reach and review words, its diff in each
 * format, a fresh lint) and the review lifecycle (draft, save, submit, approve, reject, withdraw,
 * publish), each behind its role and the account's jurisdiction scope. The store enforces
 * four-eyes and the lint gate whoever calls it.
 */
import type { Router } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { check, validateBody } from '../http/validate'
import type { DocumentStore, DocumentVersion } from '../store/store'
import { DIFF_FORMATS, render, summaryOf, toHtmlFragment, type DiffFormat } from '../../tools/schema-lint'
import { idParam, versionSummary, type AdminRequest } from './admin-http'
import type { AdminGuards } from './guards'
import { reachOf, withPunterWords, type ChangeSets } from './review'

/** The reads: the published set, a document, the versions list, one version, its diff, its lint. */
export function mountVersionReads(router: Router, deps: ServerDeps, store: DocumentStore): void {
  router.get('/admin/api/documents', async (_req, res) => {
    sendOk(
      res,
      [...(await store.published()).values()].map((v) => versionSummary(v)),
    )
  })

  router.get('/admin/api/document', async (req, res) => {
    const file = typeof req.query.file === 'string' ? req.query.file : ''
    const published = await store.publishedVersionOf(file)
    if (!published) return sendError(res, 404, HTTP_ERRORS.notFound)
    sendOk(res, { published: { ...versionSummary(published), content: published.content }, history: (await store.versions({ file, limit: 50 })).map(versionSummary) })
  })

  const listSchema = { type: 'object', properties: { state: { enum: ['draft', 'in_review', 'approved', 'rejected', 'published', 'superseded', 'withdrawn'] }, file: { type: 'string', maxLength: 200 } }, additionalProperties: false }
  router.get('/admin/api/versions', async (req, res) => {
    const query = { ...(req.query as Record<string, unknown>) }
    if (Object.values(query).some((v) => typeof v !== 'string')) return sendError(res, 400, HTTP_ERRORS.validation)
    const problem = check(listSchema, query)
    if (problem) return sendError(res, 400, HTTP_ERRORS.validation, problem)
    sendOk(res, (await store.versions({ state: query.state as DocumentVersion['state'] | undefined, file: query.file as string | undefined, limit: 200 })).filter((v) => v.origin !== 'seed' || v.deleted || query.file).map(versionSummary))
  })

  const diffFor = (version: DocumentVersion) => store.diff(version)
  /** The published set and the set with this version live: what the review reads its reach and words from. */
  const changeSetsOf = async (version: DocumentVersion): Promise<ChangeSets> => ({
    before: (await store.publishedRecords()).records,
    after: (await store.recordsWith(version)).records,
    sites: deps.documents.sites(),
  })

  router.get('/admin/api/versions/:id', async (req, res) => {
    const id = idParam(req)
    const version = id === undefined ? undefined : await store.version(id)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    const findings = await diffFor(version)
    const published = await store.publishedVersionOf(version.file)
    const sets = await changeSetsOf(version)
    const reach = reachOf(version.file, sets)
    sendOk(res, {
      ...versionSummary(version),
      content: version.content,
      publishedContent: published?.content ?? null,
      publishedVersion: published?.id ?? null,
      lint: version.lint ?? [],
      reach,
      diff: { summary: summaryOf(findings), findings: withPunterWords(findings, [reach], sets), html: toHtmlFragment(findings) },
    })
  })

  router.get('/admin/api/versions/:id/diff', async (req, res) => {
    const id = idParam(req)
    const version = id === undefined ? undefined : await store.version(id)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    const format = (typeof req.query.format === 'string' ? req.query.format : 'json') as DiffFormat
    if (!DIFF_FORMATS.includes(format)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'format', code: 'enum' })
    const output = render(format, await diffFor(version), { before: `published ${version.file}`, after: `version ${version.id}` })
    res.type(format === 'html' ? 'html' : format === 'markdown' ? 'text/markdown' : 'application/json').send(output)
  })

  router.post('/admin/api/versions/:id/lint', async (req, res) => {
    const id = idParam(req)
    const version = id === undefined ? undefined : await store.version(id)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    sendOk(res, await store.check(version))
  })
}

/** The review lifecycle: draft, save (naming its revision), submit, approve, reject, withdraw, publish. */
export function mountVersionLifecycle(router: Router, store: DocumentStore, { role, scope, bodyFile, versionFile, answer, optionalBody }: AdminGuards): void {
  const draftSchema = {
    type: 'object',
    required: ['file', 'content'],
    properties: { file: { type: 'string', minLength: 1, maxLength: 200 }, content: { type: 'string', minLength: 2, maxLength: 60000 } },
    additionalProperties: false,
  }
  router.post('/admin/api/drafts', role('operator'), validateBody(draftSchema), scope(bodyFile), async (req: AdminRequest, res) => {
    const { file, content } = req.body as { file: string; content: string }
    await answer(res, store.createDraft(req.admin!.user.email, file, content), versionSummary, 201)
  })

  // a save names the draft revision it edits: a stale one is refused with the saved text (DRAFT_CONFLICT)
  const updateSchema = { type: 'object', required: ['content', 'revision'], properties: { content: draftSchema.properties.content, revision: { type: 'integer', minimum: 1 } }, additionalProperties: false }
  router.put('/admin/api/versions/:id', role('operator'), validateBody(updateSchema), scope(versionFile), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, store.updateDraft(req.admin!.user.email, id, (req.body as { content: string }).content, (req.body as { revision: number }).revision), versionSummary)
  })


  const emptySchema = { type: 'object', properties: {}, additionalProperties: false }

  router.post('/admin/api/versions/:id/submit', role('operator'), scope(versionFile), optionalBody, validateBody(emptySchema), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, await store.submit(req.admin!.user.email, id), versionSummary)
  })

  const approveSchema = { type: 'object', properties: { comment: { type: 'string', maxLength: 2000 } }, additionalProperties: false }
  router.post('/admin/api/versions/:id/approve', role('compliance'), scope(versionFile), optionalBody, validateBody(approveSchema), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, await store.approve(req.admin!.user.email, id, (req.body as { comment?: string }).comment ?? ''), versionSummary)
  })

  const rejectSchema = { type: 'object', required: ['comment'], properties: { comment: { type: 'string', minLength: 3, maxLength: 2000, pattern: '\\S' } }, additionalProperties: false }
  router.post('/admin/api/versions/:id/reject', role('compliance'), scope(versionFile), validateBody(rejectSchema), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, store.reject(req.admin!.user.email, id, (req.body as { comment: string }).comment), versionSummary)
  })

  router.post('/admin/api/versions/:id/withdraw', role('operator'), scope(versionFile), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, store.withdraw(req.admin!.user.email, id), versionSummary)
  })

  router.post('/admin/api/versions/:id/publish', role('operator', 'compliance'), scope(versionFile), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, await store.publish(req.admin!.user.email, id), versionSummary)
  })
}
