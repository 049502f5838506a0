/**
 * Creating and deleting documents from the studio (issue 29 item 7), behind the admin session, its
 * CSRF check and the jurisdiction scope (./scope.ts). Both make a draft that then follows the
 * normal path: submit (the publish gate loads and compiles the set with it), review by a second
 * person, publish.
 *
 *   GET  /admin/api/studio/starters                        the kinds "New document" offers and their folders
 *   POST /admin/api/studio/new {kind, id, jurisdiction}    a draft of ./starters.ts's document, at the kind's
 *                                                          folder (shared, or under one jurisdiction)  operator
 *   POST /admin/api/deletions {file}                       a draft deleting a published document       operator
 */
import { Router, type Request, type RequestHandler, type Response } from 'express'
import type { DocumentKind } from '../../kernel/documents/kinds'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import type { DocumentStore, DocumentVersion, StoreResult } from '../store/store'
import type { AdminRole, AdminSession } from './accounts'
import { STARTERS, starterFile, starterText } from './starters'
import { ADMIN_STATUS } from './status'

type AdminRequest = Request & { admin?: AdminSession }
type Scope = (fileOf: (req: Request) => string | undefined) => RequestHandler

const KINDS = Object.keys(STARTERS)
const newSchema = {
  type: 'object',
  required: ['kind', 'id', 'jurisdiction'],
  properties: {
    kind: { enum: KINDS },
    id: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{1,59}$' },
    jurisdiction: { oneOf: [{ type: 'null' }, { type: 'string', pattern: '^[a-z][a-z0-9-]{0,39}$' }] },
  },
  additionalProperties: false,
}
const deletionSchema = { type: 'object', required: ['file'], properties: { file: { type: 'string', minLength: 1, maxLength: 200 } }, additionalProperties: false }

export function createAuthoringRouter(deps: ServerDeps, store: DocumentStore, role: (...roles: AdminRole[]) => RequestHandler, scope: Scope, summary: (v: DocumentVersion) => object): Router {
  const router = Router()
  const who = (req: Request) => (req as AdminRequest).admin!.user.email
  const answer = async (res: Response, pending: Promise<StoreResult<DocumentVersion>>) => {
    const result = await pending
    if (result.ok) return sendOk(res, summary(result.value), 201)
    sendError(res, ADMIN_STATUS.get(result.code) ?? 400, result.code, result.details)
  }
  const newFile = (req: Request) => {
    const { kind, id, jurisdiction } = req.body as { kind: DocumentKind; id: string; jurisdiction: string | null }
    return starterFile(kind, id, jurisdiction)
  }

  router.get('/admin/api/studio/starters', (_req, res) => sendOk(res, KINDS.map((kind) => ({ kind, folder: STARTERS[kind as DocumentKind]!.folder }))))

  router.post('/admin/api/studio/new', role('operator'), validateBody(newSchema), scope(newFile), async (req, res) => {
    const { kind, id, jurisdiction } = req.body as { kind: DocumentKind; id: string; jurisdiction: string | null }
    if (jurisdiction !== null && !deps.documents.sites().some((s) => s.jurisdiction === jurisdiction)) return sendError(res, 400, 'UNKNOWN_JURISDICTION', { field: 'jurisdiction' })
    const file = newFile(req)
    // one document per kind and id: a served one (shared or any jurisdiction's) or an open draft of the file
    const taken = deps.documents.list(kind).some((r) => r.id === id) || (await store.versions({ file, limit: 200 })).some((v) => ['draft', 'in_review', 'approved', 'rejected'].includes(v.state))
    if (taken) return sendError(res, 409, 'DOCUMENT_EXISTS', { kind, id, file })
    await answer(res, store.createDraft(who(req), file, starterText(kind, id, jurisdiction, new Date(deps.now()).toISOString().slice(0, 10))))
  })

  router.post('/admin/api/deletions', role('operator'), validateBody(deletionSchema), scope((req) => (req.body as { file: string }).file), async (req, res) => {
    await answer(res, store.createDeletionDraft(who(req), (req.body as { file: string }).file))
  })
  return router
}
