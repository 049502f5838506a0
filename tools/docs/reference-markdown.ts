/**
 * Writes the documents reference (docs/reference/documents.md) as markdown: every document kind,
 * node kind and action with its fields or parameters and a real example. Pure: it takes the
 * schemas, the action definitions and the examples, and returns the text, so the CLI
 * (tools/docs-reference.ts) and the test compare the same output.
 */
import { fieldRows, type FieldRow, type Schema } from './schema-words'
import { shorten, type Example, type Examples } from './examples'
import { headingId } from './links'

export interface ReferenceInput {
  documentSchemas: Readonly<Record<string, Schema>>
  nodeKindProperties: Readonly<Record<string, Schema>>
  /** The fields every node has (type, id, when, testId). */
  nodeCommon: Schema
  actions: Readonly<Record<string, { description: string; params: Schema }>>
  examples: Examples
  /** How many shipped documents of each kind, and the folders they are in. */
  documentsByKind: ReadonlyMap<string, { count: number; folders: string[] }>
}

/** What each kind is for, in one line (the schemas carry only a title). */
const KIND_PURPOSE: Readonly<Record<string, string>> = {
  screen: 'A page at a route: its guard, the data it loads, what runs on enter, and its body of nodes.',
  popup: 'A dialog opened by `popup.open`: its modal kind, body, buttons and what runs on close.',
  menu: 'A list of named menu items (the left menu, the language menu …).',
  footer: 'The footer links, the footer notice and the cookie-consent settings.',
  header: "The header's account area, the profile panel and the app icons.",
  flow: 'A multi-step form: each step a JSON Schema rendered by rjsf and enforced by the server.',
  jurisdiction: "A site's policy: hosts, locales, currency, sign-up, regulation, payments, betting, nicknames … (never code).",
  'remote-config': "A site's remote app config (spec §5 keys), served to the apps and the browser.",
  translations: 'Texts of one part of the product in one locale (i18next JSON v4 keys), merged per locale.',
  redirects: "Catch-all and legacy path rules (spec §2's \"(*)\" paths), overridable per jurisdiction.",
  quiz: 'A quiz: question, answers (the right one server-only), dates and prizes.',
  'loyalty-campaign': 'A loyalty campaign: landing page, prizes and texts, on the sites that load it.',
  promotion: 'A promotion of one product: dates, texts per locale, who sees it, its participation code (server-only).',
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

function table(rows: FieldRow[], first: string): string[] {
  if (rows.length === 0) return ['No fields.', '']
  return [
    `| ${first} | required | type | description |`,
    '|---|---|---|---|',
    ...rows.map((r) => `| \`${cell(r.path)}\` | ${r.required ? 'yes' : ''} | ${cell(r.type)} | ${cell(r.description)} |`),
    '',
  ]
}

function example(found: Example | undefined, maxLines: number, what: string, required?: readonly string[]): string[] {
  if (!found) return [`No shipped document uses this ${what} yet.`, '']
  const { value, shortened } = shorten(found.value, maxLines, required)
  const where = found.pointer ? `\`${found.file}\` at \`${found.pointer}\`` : `\`${found.file}\``
  return [`Example, from ${where}${shortened ? ` (${shortened})` : ''}:`, '', '```json', JSON.stringify(value, null, 2), '```', '']
}

function documentKinds(input: ReferenceInput): string[] {
  const out = ['## Document kinds', '']
  for (const [kind, schema] of Object.entries(input.documentSchemas)) {
    const shipped = input.documentsByKind.get(kind)
    out.push(`### Document: ${kind}`, '', `${String(schema.title ?? kind)}. ${KIND_PURPOSE[kind] ?? ''}`.trim(), '')
    out.push(shipped ? `${shipped.count} shipped, in ${shipped.folders.map((f) => `\`${f}/\``).join(', ')}.` : 'None shipped.', '')
    out.push(...table(fieldRows(schema), 'field'), ...example(input.examples.documents.get(kind), 50, 'kind', (schema.required as string[] | undefined) ?? []))
  }
  return out
}

function nodeKinds(input: ReferenceInput): string[] {
  const out = ['## Node kinds', '', 'Every node has these fields; each kind adds its own below.', '', ...table(fieldRows({ properties: input.nodeCommon, required: ['type'] }), 'field')]
  for (const [kind, spec] of Object.entries(input.nodeKindProperties)) {
    out.push(`### Node: ${kind}`, '', ...table(fieldRows(spec), 'field'), ...example(input.examples.nodes.get(kind), 25, 'node kind'))
  }
  return out
}

function actions(input: ReferenceInput): string[] {
  const out = ['## Actions', '', 'An action is `{"do": name, "with": parameters, "when", "onSuccess", "onError"}` in any action chain; a parameter may be a binding.', '']
  for (const [name, definition] of Object.entries(input.actions)) {
    out.push(`### Action: ${name}`, '', definition.description, '', ...table(fieldRows(definition.params), 'parameter'), ...example(input.examples.actions.get(name), 20, 'action'))
  }
  return out
}

const contents = (title: string, prefix: string, names: string[]) =>
  `- ${title}: ${names.map((n) => `[${n}](#${headingId(`${prefix}: ${n}`)})`).join(', ')}`

/** The whole reference as markdown. */
export function referenceMarkdown(input: ReferenceInput): string {
  const lines = [
    '# Documents reference',
    '',
    '<!-- Generated by `npm run docs:reference` from kernel/documents/kinds.ts and kernel/actions/. Do not edit: `npm run docs:check` fails when this file is stale. -->',
    '',
    'Every document kind, node kind and action a document may use, with its fields and a real example (the smallest use in `schemas/`).',
    'Types: **text** is an i18n key or `{"key", "values", "count"}`; **binding** is `{"$": "<CEL>"}`, a value computed from the context; **CEL expression** is a condition over the context;',
    '**node** is one of the node kinds; **action chain** is a list of actions. How to write and change documents: [the operators\' guide](../operators-guide.md).',
    '',
    contents('Document kinds', 'Document', Object.keys(input.documentSchemas)),
    contents('Node kinds', 'Node', Object.keys(input.nodeKindProperties)),
    contents('Actions', 'Action', Object.keys(input.actions)),
    '',
    ...documentKinds(input),
    ...nodeKinds(input),
    ...actions(input),
  ]
  return lines.join('\n').replace(/\n+$/, '') + '\n'
}
