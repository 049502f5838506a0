/**
 * The jurisdiction document behind a request, in a file of its own so the dictionary's route
 * files read it without importing the module that mounts them (no import circle).
 */
import type { Request } from 'express'
import type { JurisdictionDocument } from '../../kernel/documents/types'
import type { ServerDeps } from '../deps'
import { siteContext } from '../http/site'

/** The jurisdiction document of a request's site (sign-up policy lives there): behind a punter's
 * session, the punter's own jurisdiction's, whatever the host (server/http/site.ts `bindPunterSite`). */
export function jurisdictionOf(deps: Pick<ServerDeps, 'documents'>, req: Request): JurisdictionDocument {
  const context = siteContext(req, deps)
  const record = deps.documents.resolve('jurisdiction', context.site.id, context)
  return record?.source as unknown as JurisdictionDocument
}
