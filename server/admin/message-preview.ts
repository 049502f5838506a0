/**
 * The live preview of a message an operator is writing (issue 29 item 2: messages preview live,
 * like flows): a preview token "as" one of the demo punters that carries the message, so that
 * punter's inbox (an INBOX message) or page (an EXTERNAL one, shown as a notification) renders with
 * it first (server/messages/preview.ts). Nothing is stored or sent; the token shows only to the
 * admin session that asked (server/store/preview.ts); each preview as a punter is audited.
 *
 *   POST /admin/api/messages/preview {punter, kind, source?, texts} → {token, site, path, locale}
 */
import { Router, type Request } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import { ADMIN_MESSAGE_SCHEMA } from '../messages/admin'
import { createPreview, previewCookies, previewKeyFor, type PreviewMessage } from '../store/preview'
import type { DocumentStore } from '../store/store'
import { adminSessionOpen, SESSION_MS, type AdminSession } from './accounts'
import { previewPunters } from './studio'

const SCHEMA = {
  type: 'object',
  required: ['punter', 'kind', 'texts'],
  additionalProperties: false,
  properties: {
    punter: { type: 'string', pattern: '^[0-9]{1,20}$' },
    kind: ADMIN_MESSAGE_SCHEMA.properties.kind,
    source: { enum: ['web', 'club', 'global'] },
    texts: ADMIN_MESSAGE_SCHEMA.properties.texts,
  },
}

export function createMessagePreviewRouter(deps: ServerDeps, store: DocumentStore, sessionToken: (req: Request) => string | undefined): Router {
  const router = Router()
  router.post('/admin/api/messages/preview', validateBody(SCHEMA), async (req: Request & { admin?: AdminSession }, res) => {
    const body = req.body as { punter: string; kind: PreviewMessage['kind']; source?: PreviewMessage['source']; texts: Record<string, string> }
    const punter = (await previewPunters(deps)).find((p) => p.accountNumber === body.punter)
    const site = punter && deps.documents.sites().find((s) => s.jurisdiction === punter.jurisdiction)
    if (!punter || !site) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'punter', code: 'enum' })
    const { tokenHash, user } = req.admin!
    const viewerKey = previewKeyFor(sessionToken(req)!)
    const token = createPreview({
      versionId: 0,
      file: '',
      records: deps.documents.list(),
      jurisdiction: site.jurisdiction,
      viewerKey,
      sessionOpen: () => adminSessionOpen(deps.data, tokenHash, deps.now()),
      now: deps.now(),
      punter: { id: punter.id, accountNumber: punter.accountNumber },
      message: { kind: body.kind, source: body.source ?? 'web', texts: body.texts },
    })
    await store.audit(user.email, 'messages.preview-as-punter', 'messages', { site: site.id, punter: punter.accountNumber, nickname: punter.nickname })
    res.setHeader('Set-Cookie', previewCookies(viewerKey, SESSION_MS / 1000, req.secure))
    // the page in the language the message is written in, when the punter's site has it
    const locale = Object.keys(body.texts).find((l) => site.locales.includes(l)) ?? site.defaultLocale
    sendOk(res, { token, site: site.id, path: body.kind === 'INBOX' ? '/account/messages' : '/', locale })
  })
  return router
}
