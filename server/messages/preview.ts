/**
 * A message an operator is writing, as its punter will read it (issue 29 item 2): on an admin's
 * preview page made "as" a demo punter with a message (server/admin/message-preview.ts), the inbox
 * and the notifications answer with that message first, in the page's locale. Nothing is stored or
 * delivered; the preview is the admin session's own (server/documents/preview-documents.ts).
 */
import type { Request } from 'express'
import type { ServerDeps } from '../deps'
import { siteContext } from '../http/site'
import { documentsOf } from '../documents/preview-documents'
import { localized, type PunterMessage } from './store'

/** The message a preview page shows, if any; `refused` for a preview this viewer may not see. */
export async function previewedMessage(req: Request, deps: Pick<ServerDeps, 'documents' | 'now'>): Promise<PunterMessage | undefined | 'refused'> {
  const read = await documentsOf(req, deps)
  if (!read.ok) return 'refused'
  const message = read.message
  if (!message) return undefined
  return {
    punterMessageId: 0,
    source: message.source,
    kind: message.kind,
    localizedMessage: localized(message.texts, siteContext(req, deps).locale),
    iconUrlMobile: null,
    createdAt: new Date(deps.now()).toISOString(),
    read: false,
  }
}
