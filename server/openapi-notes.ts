/**
 * The notes of the OpenAPI document (summaries, error codes, answers that are not the envelope),
 * one list read top to bottom: each part writes its notes as data in its own openapi file and is
 * listed here once; nothing registers by being imported. The generator (server/auth/openapi.ts)
 * lays the merged notes over the operations it derives from the running router, for served routes
 * only. Add a part's notes by appending one import and one entry.
 */
import { authOpenApi } from './auth/openapi-auth'
import { catalogueOpenApi } from './auth/openapi-catalogue'
import { betsOpenApi } from './bets/openapi'
import { credentialsOpenApi } from './credentials/openapi'
import { engagementOpenApi } from './engagement/openapi'
import { gamesOpenApi } from './games/openapi'
import { apiPageOpenApi } from './http/api-page'
import { mergeNotes, type PathItem } from './http/openapi-registry'
import { identityOpenApi } from './identity/openapi'
import { messagesOpenApi } from './messages/openapi'
import { healthOpenApi } from './ops/health'
import { metricsOpenApi } from './ops/metrics'
import { paymentsOpenApi } from './payments/openapi'
import { promotionsOpenApi } from './promotions/openapi'
import { regulationOpenApi } from './regulation/openapi'
import { servicesOpenApi } from './services/openapi'

/** Every part's notes, in order: a later note on the same operation adds to (and overrides keys of) an earlier one. */
export const OPENAPI_NOTES: readonly Readonly<Record<string, PathItem>>[] = [
  ...catalogueOpenApi,
  apiPageOpenApi,
  healthOpenApi,
  metricsOpenApi,
  authOpenApi,
  identityOpenApi,
  credentialsOpenApi,
  ...regulationOpenApi,
  paymentsOpenApi,
  betsOpenApi,
  ...gamesOpenApi,
  messagesOpenApi,
  engagementOpenApi,
  promotionsOpenApi,
  servicesOpenApi,
]

let merged: Readonly<Record<string, PathItem>> | undefined

/** The notes of the list merged by path and method (built once). */
export function openApiNotes(): Readonly<Record<string, PathItem>> {
  return (merged ??= mergeNotes(OPENAPI_NOTES))
}
