/**
 * The HTTP API as a page: `GET /docs/api` renders the OpenAPI document (`/api/openapi.json`, generated
 * from the router) as plain server-rendered HTML — every path and method by tag, its parameters,
 * request schema and responses — with one same-origin stylesheet (`/docs/api.css`). No script, no
 * inline style and nothing from a CDN, so the site's CSP (`script-src 'self'`, `style-src 'self'`)
 * holds unchanged; a reader needs no tool beyond a browser.
 */
import type { Application, Request, Response } from 'express'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { openapi, type Operation, type PathItem } from './openapi-registry'
import { documented } from './route-docs'

interface OpenApiDocument {
  info: { title: string; version: string; description?: string }
  tags?: { name: string; description?: string }[]
  paths: Record<string, Record<string, Operation>>
  components?: { responses?: Record<string, { description?: string; content?: object }>; securitySchemes?: Record<string, { description?: string; name?: string; in?: string; scheme?: string }> }
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: object
  description?: string
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete']
const STYLESHEET = readFileSync(join(import.meta.dirname, 'api-page.css'), 'utf8')

/** Text made safe for HTML content and attribute values. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

const anchor = (text: string) => text.replace(/[^A-Za-z0-9_]+/g, '-')
const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`
const schemaBlock = (label: string, schema: unknown) => `<details><summary>${escapeHtml(label)}</summary>${json(schema)}</details>`

function parametersTable(parameters: Parameter[]): string {
  if (parameters.length === 0) return ''
  const rows = parameters.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : ''}</td><td><code>${escapeHtml(JSON.stringify(p.schema ?? {}))}</code>${p.description ? ` ${escapeHtml(p.description)}` : ''}</td></tr>`,
  )
  return `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

function requestBody(operation: Operation): string {
  const body = operation.requestBody as { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined
  if (!body?.content) return ''
  const parts = Object.entries(body.content).map(([type, media]) => schemaBlock(`${type}${body.required ? ' (required)' : ' (optional)'}`, media.schema ?? {}))
  return `<h4>Request body</h4>${parts.join('')}`
}

function responses(operation: Operation, doc: OpenApiDocument): string {
  const items = Object.entries((operation.responses as Record<string, { $ref?: string; description?: string; content?: Record<string, { schema?: unknown }> }>) ?? {}).map(([status, given]) => {
    const response = given.$ref ? (doc.components?.responses?.[given.$ref.split('/').pop() ?? ''] ?? given) : given
    const content = Object.entries((response as { content?: Record<string, { schema?: unknown }> }).content ?? {})
    const schemas = content.map(([type, media]) => schemaBlock(`${type} schema`, media.schema ?? {})).join('')
    return `<dt>${escapeHtml(status)}</dt><dd>${escapeHtml(response.description ?? '')}${schemas}</dd>`
  })
  return `<h4>Responses</h4><dl>${items.join('')}</dl>`
}

function security(operation: Operation, doc: OpenApiDocument): string {
  const names = ((operation.security as Record<string, unknown>[] | undefined) ?? []).flatMap((entry) => Object.keys(entry))
  if (names.length === 0) return ''
  const said = names.map((name) => `<code>${escapeHtml(name)}</code>${doc.components?.securitySchemes?.[name]?.description ? `: ${escapeHtml(doc.components.securitySchemes[name].description!)}` : ''}`)
  return `<p class="security">Needs ${said.join(' or ')}</p>`
}

function operationHtml(path: string, method: string, operation: Operation, doc: OpenApiDocument): string {
  const id = anchor(`${method}-${path}`)
  return [
    `<article class="operation" id="${id}">`,
    `<h3><a href="#${id}"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></a></h3>`,
    operation.summary ? `<p>${escapeHtml(String(operation.summary))}</p>` : '',
    operation.description ? `<p>${escapeHtml(String(operation.description))}</p>` : '',
    security(operation, doc),
    parametersTable((operation.parameters as Parameter[] | undefined) ?? []),
    requestBody(operation),
    responses(operation, doc),
    '</article>',
  ].join('')
}

/** Operations grouped by their first tag, each group sorted by path then method. */
function byTag(doc: OpenApiDocument): Map<string, { path: string; method: string; operation: Operation }[]> {
  const groups = new Map<string, { path: string; method: string; operation: Operation }[]>()
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHOD_ORDER.filter((m) => item[m])) {
      const tag = ((item[method].tags as string[] | undefined) ?? ['other'])[0]
      groups.set(tag, [...(groups.get(tag) ?? []), { path, method, operation: item[method] }])
    }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)))
}

/** The whole page. */
export function apiPageHtml(doc: OpenApiDocument): string {
  const groups = byTag(doc)
  const described = new Map((doc.tags ?? []).map((t) => [t.name, t.description ?? '']))
  const contents = [...groups].map(([tag, ops]) => `<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a> (${ops.length})</li>`).join('')
  const sections = [...groups].map(
    ([tag, ops]) =>
      `<section id="tag-${anchor(tag)}"><h2>${escapeHtml(tag)}</h2>${described.get(tag) ? `<p>${escapeHtml(described.get(tag)!)}</p>` : ''}${ops.map((o) => operationHtml(o.path, o.method, o.operation, doc)).join('')}</section>`,
  )
  const count = [...groups.values()].reduce((sum, ops) => sum + ops.length, 0)
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.info.title)} HTTP API</title><link rel="stylesheet" href="/docs/api.css"></head><body>`,
    `<header><h1>${escapeHtml(doc.info.title)} HTTP API</h1><p>Version ${escapeHtml(doc.info.version)}: ${count} operations, generated from the router. Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>`,
    doc.info.description ? `<p>${escapeHtml(doc.info.description)}</p>` : '',
    `</header><nav><h2>Contents</h2><ul>${contents}</ul></nav><main>${sections.join('')}</main></body></html>`,
  ].join('')
}

/** The page's notes for the OpenAPI document (listed in server/openapi-notes.ts). */
export const apiPageOpenApi: Record<string, PathItem> = {
  '/docs/api': { get: { summary: 'This document as a readable page (server-rendered HTML, no script)', responses: { 200: openapi.raw('HTML page', 'text/html') } } },
  '/docs/api.css': { get: { summary: 'The stylesheet of /docs/api', responses: { 200: openapi.raw('Stylesheet', 'text/css') } } },
}

/** Serves the page and its stylesheet; `documentOf` gives the app's OpenAPI document (built once by the caller). */
export function mountApiPage(app: Application, documentOf: (req: Request) => object): void {
  let page: string | undefined
  const serve = (req: Request, res: Response) => {
    page ??= apiPageHtml(documentOf(req) as OpenApiDocument)
    res.setHeader('Cache-Control', 'no-cache')
    res.type('html').send(page)
  }
  const stylesheet = (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache')
    res.type('css').send(STYLESHEET)
  }
  app.get('/docs/api', documented(serve, { tag: 'meta' }))
  app.get('/docs/api.css', documented(stylesheet, { tag: 'meta' }))
}
