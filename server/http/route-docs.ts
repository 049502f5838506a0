/**
 * What a route's middleware says about the route, for the OpenAPI generator: the validation
 * middleware carries the very schema object it validates with, and a session check carries the
 * security scheme it enforces. The generator reads these tags from the Express router stack, so
 * the published document is derived from the code that runs and cannot drift from it.
 */
import type { RequestHandler } from 'express'

const ROUTE_DOCS = Symbol.for('parlay.routeDocs')

/** Security schemes named in the OpenAPI document's components. */
export type SecurityScheme = 'punterSessionHash' | 'accessToken' | 'adminSession'

export interface RouteDocs {
  /** JSON Schema of the JSON request body (the object the middleware validates with). */
  body?: object
  /** The body may be left out (a call that takes none: `NO_BODY`). */
  bodyOptional?: boolean
  /** JSON Schema of the query string (an object schema: one property per parameter). */
  query?: object
  /** Security schemes this middleware enforces (any one of them is enough). */
  security?: SecurityScheme[]
  /** A tag that overrides the module's tag. */
  tag?: string
}

type Tagged = { [ROUTE_DOCS]?: RouteDocs }

/** Attaches docs to a middleware function and returns the same function. */
export function documented<T extends RequestHandler>(handler: T, docs: RouteDocs): T {
  const tagged = handler as T & Tagged
  tagged[ROUTE_DOCS] = { ...tagged[ROUTE_DOCS], ...docs }
  return handler
}

/** Marks a middleware as a punter session check (punter-session-hash header; a Bearer token is optional). */
export const punterSessionCheck = <T extends RequestHandler>(handler: T): T => documented(handler, { security: ['punterSessionHash'] })

export function routeDocsOf(handler: unknown): RouteDocs | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[ROUTE_DOCS] : undefined
}
