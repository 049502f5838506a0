/**
 * The documents a request reads: the published set, or, on an admin's preview page, the preview's
 * whole set (the published documents with the draft in place). The page names its preview by the
 * token in its gateway calls' `x-parlay-preview` header (engine/core/gateway.ts) or in `?preview=`;
 * the token is honoured only for the admin session that made it and on its site, as the documents
 * API honours it (server/store/preview.ts). So promotions, quizzes and messages preview live like
 * flows do, and punters never see a draft.
 */
import type { Request } from 'express'
import { HEADERS } from '../../kernel/core/contracts'
import type { ServerDeps } from '../deps'
import { siteContext } from '../http/site'
import { previewRecords, type PreviewMessage } from '../store/preview'
import { recordsView, type DocumentsView } from './service'

export type RequestDocuments = { ok: true; documents: DocumentsView; preview: boolean; message?: PreviewMessage } | { ok: false }

/** The preview token a request names, if any (at most 64 characters, as tokens are). */
export function previewTokenOf(req: Request): string | undefined {
  const token = req.header(HEADERS.preview) ?? (typeof req.query.preview === 'string' ? req.query.preview : undefined)
  return token && token.length <= 64 ? token : token === undefined ? undefined : ''
}

/** The request's documents; `{ok: false}` for a preview this viewer may not see (answer 403 PREVIEW_REFUSED). */
export async function documentsOf(req: Request, deps: Pick<ServerDeps, 'documents' | 'now'>): Promise<RequestDocuments> {
  const token = previewTokenOf(req)
  if (token === undefined) return { ok: true, documents: deps.documents, preview: false }
  const preview = await previewRecords(token, siteContext(req, deps), deps.now(), req.headers.cookie)
  return preview.status === 'ok' ? { ok: true, documents: recordsView(preview.records), preview: true, message: preview.message } : { ok: false }
}
