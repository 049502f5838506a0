/**
 * Strict request validation: every body and query is checked against a JSON Schema; unknown fields
 * are rejected (no mass assignment), and the answer names the field and the rule, never a stack.
 * Each middleware carries its schema (./route-docs) so the OpenAPI document shows exactly it.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { HTTP_ERRORS, sendError } from './envelope'
import { documented } from './route-docs'
import { ajvCacheOptions, compileCached } from '../../tools/schema-lint'

const REQUEST_AJV_OPTIONS = { allErrors: false, strict: false, coerceTypes: false, useDefaults: true } as const
export const ajv = new Ajv({ ...REQUEST_AJV_OPTIONS, ...ajvCacheOptions() })
addFormats(ajv)

/**
 * The client's key of a money call (bet, deposit, game round): the same key answers the first call
 * again, so a double tap or a retried request acts once. `description` says what is answered.
 */
export const idempotencyKeyProperty = (description: string) => ({ type: 'string', pattern: '^[A-Za-z0-9_-]{8,80}$', description }) as const

const cache = new WeakMap<object, ValidateFunction>()
function compiled(schema: object): ValidateFunction {
  let validate = cache.get(schema)
  if (!validate) {
    validate = compileCached(ajv, REQUEST_AJV_OPTIONS, schema)
    cache.set(schema, validate)
  }
  return validate
}

export interface FieldError {
  field: string
  code: string
  /** The bound a minLength, maxLength, minimum, maximum or date bound error broke: its text shows it. */
  limit?: number | string
}

export function describeError(error: ErrorObject | undefined): FieldError {
  if (!error) return { field: '', code: 'invalid' }
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.')
  if (error.keyword === 'required') return { field: [base, error.params.missingProperty].filter(Boolean).join('.'), code: 'required' }
  if (error.keyword === 'additionalProperties')
    return { field: [base, error.params.additionalProperty].filter(Boolean).join('.'), code: 'unknownField' }
  const limit = (error.params as { limit?: unknown }).limit
  return typeof limit === 'number' || typeof limit === 'string' ? { field: base, code: error.keyword, limit } : { field: base, code: error.keyword }
}

/**
 * Middleware: `req.body` must be a JSON object matching `schema`. `refuse` answers a body that does
 * not (by default 400 with the field and the rule; a body that is no JSON at all is 415); a module
 * whose calls have their own error format (the sign-up calls, spec §8) passes its own.
 */
export function validateBody(schema: object, refuse?: (res: Response, problem: FieldError) => void): RequestHandler {
  const validate = compiled(schema)
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    if (req.body === undefined || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
      if (refuse) return refuse(res, { field: '', code: 'type' })
      if (!req.is('application/json')) return sendError(res, 415, HTTP_ERRORS.unsupportedMediaType)
      return sendError(res, 400, HTTP_ERRORS.validation, { field: '', code: 'type' })
    }
    if (!validate(req.body)) {
      const problem = describeError(validate.errors?.[0])
      return refuse ? refuse(res, problem) : sendError(res, 400, HTTP_ERRORS.validation, problem)
    }
    next()
  }
  return documented(middleware, { body: schema })
}

/** The request body of a call that takes none: nothing, or an empty JSON object. */
export const NO_BODY = { type: 'object', maxProperties: 0, description: 'No body: send nothing, or an empty JSON object.' } as const

/**
 * Middleware for a call that takes no body (logout, accept, continue, start): nothing or `{}` passes;
 * any field is refused (400 unknownField) and a body in another format 415, so a client that sends
 * something believes nothing it sent was used. `refuse` answers as `validateBody`'s does.
 */
export function noBody(refuse?: (res: Response, problem: FieldError) => void): RequestHandler {
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const body: unknown = req.body
    const length = Number(req.header('content-length') ?? 0)
    if (body === undefined || body === null) {
      if (length > 0 && !req.is('application/json')) return sendError(res, 415, HTTP_ERRORS.unsupportedMediaType)
      return next()
    }
    if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return next()
    const field = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body)[0] : ''
    const problem = { field, code: field ? 'unknownField' : 'type' }
    return refuse ? refuse(res, problem) : sendError(res, 400, HTTP_ERRORS.validation, problem)
  }
  return documented(middleware, { body: NO_BODY, bodyOptional: true })
}

/**
 * Middleware: the query string must match `schema` (an object schema whose properties are the
 * parameters). A repeated parameter (an array) is refused before the schema sees it.
 */
export function validateQuery(schema: object): RequestHandler {
  const validate = compiled(schema)
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const query = { ...(req.query as Record<string, unknown>) }
    const repeated = Object.keys(query).find((key) => typeof query[key] !== 'string')
    if (repeated !== undefined) return sendError(res, 400, HTTP_ERRORS.validation, { field: repeated, code: 'type' })
    if (!validate(query)) return sendError(res, 400, HTTP_ERRORS.validation, describeError(validate.errors?.[0]))
    next()
  }
  return documented(middleware, { query: schema })
}

/** Validates any value (query, params) and returns the first problem, or null. */
export function check(schema: object, value: unknown): FieldError | null {
  const validate = compiled(schema)
  return validate(value) ? null : describeError(validate.errors?.[0])
}

/** The key whose assignment (`target[key] = value`) replaces an object's prototype. */
const PROTOTYPE_KEY = '__proto__'
/** A NUL character: PostgreSQL's text and jsonb cannot hold one (SQLSTATE 22021, a 500 found by the
 * route fuzz from valid bodies, issue 30 item 8), and no field of the API means one. */
const NUL = '\u0000'

/** The JSON pointer and rule of the first refused part of a parsed body, or null: a `__proto__` key,
 * or a NUL character in a key or a string (iterative: a body may nest 10 000 levels deep within the
 * size limit). */
export function forbiddenIn(body: unknown): { pointer: string; code: 'forbiddenKey' | 'nulCharacter' } | null {
  const stack: [unknown, string][] = [[body, '']]
  while (stack.length > 0) {
    const [value, pointer] = stack.pop()!
    if (typeof value === 'string' && value.includes(NUL)) return { pointer, code: 'nulCharacter' }
    if (value === null || typeof value !== 'object') continue
    for (const key of Object.keys(value)) {
      if (key === PROTOTYPE_KEY) return { pointer: `${pointer}/${key}`, code: 'forbiddenKey' }
      if (key.includes(NUL)) return { pointer: `${pointer}/${key.replaceAll(NUL, '\\u0000')}`, code: 'nulCharacter' }
      stack.push([(value as Record<string, unknown>)[key], `${pointer}/${key}`])
    }
  }
  return null
}

/**
 * Middleware for every JSON or form body: a `__proto__` key is refused (400) before any handler
 * copies the body into an object, where it would swap that object's prototype and slip fields
 * past validation; so is a NUL character anywhere in it or in the query string (no store can keep
 * one on PostgreSQL).
 */
export function refusePrototypeKeys(req: Request, res: Response, next: NextFunction): void {
  const found = forbiddenIn(req.body)
  if (found !== null) return sendError(res, 400, HTTP_ERRORS.validation, { field: found.pointer.slice(1).replace(/\//g, '.'), code: found.code })
  // the query string too: `?file=%00` reaches a store that cannot keep or compare a NUL
  const inQuery = forbiddenIn(req.query)
  if (inQuery !== null) return sendError(res, 400, HTTP_ERRORS.validation, { field: `query${inQuery.pointer.replace(/\//g, '.')}`, code: inQuery.code })
  next()
}
