/**
 * What a served document set must be before the server installs it — at start, on every reload
 * from files and on every publish — and, the same function, what the publish gate runs on a
 * document set with a change in place (server/store/publish-check.ts). Each document already
 * passed the loader (JSON, its kind's schema, every CEL expression compiled and type-checked);
 * this adds what only the whole set, or the server's own compilers, can see:
 *
 * - the sites: at least one jurisdiction, exactly one default, no host claimed twice, a default
 *   locale among the site's locales;
 * - every flow step's schema compiled by ajv exactly as the server compiles the precompiled
 *   validators it serves and enforces (server/validators/compile.ts, the same cache): a step
 *   schema ajv refuses (`"minLength": "eight"`) used to pass the loader, go live and answer 500 on
 *   the page's validator module;
 * - the casino games' declared returns against their maths and the jurisdictions' ranges
 *   (kernel/games/offer.ts).
 *
 * Problems read `file:json-pointer: message`, like the loader's.
 */
import Ajv, { type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import type { JurisdictionDocument } from '../../kernel/documents/types'
import type { DocumentProblem, DocumentRecord } from '../../tools/schema-lint'
import { AJV_OPTIONS, cachedFlowSchemas, normalizeStepSchema, type FlowLike } from '../validators/compile'
import { gameSetProblems } from '../../kernel/games/offer'

function siteProblems(records: DocumentRecord[]): DocumentProblem[] {
  const problems: DocumentProblem[] = []
  const jurisdictions = records.filter((r) => r.kind === 'jurisdiction')
  if (jurisdictions.length === 0) problems.push({ file: 'jurisdictions', pointer: '', message: 'no jurisdiction document: at least one site is needed' })
  const defaults = jurisdictions.filter((r) => r.source.default === true)
  if (jurisdictions.length > 0 && defaults.length !== 1)
    problems.push({ file: 'jurisdictions', pointer: '/default', message: `exactly one jurisdiction must be the default site (found ${defaults.length})` })
  const hostOwner = new Map<string, string>()
  for (const record of jurisdictions) {
    const doc = record.source as unknown as JurisdictionDocument
    for (const [i, host] of doc.hosts.entries()) {
      const owner = hostOwner.get(host)
      if (owner) problems.push({ file: record.file, pointer: `/hosts/${i}`, message: `host ${host} is also claimed by ${owner}` })
      hostOwner.set(host, record.file)
    }
    if (!doc.locales.includes(doc.defaultLocale))
      problems.push({ file: record.file, pointer: '/defaultLocale', message: `default locale ${doc.defaultLocale} is not among the site's locales` })
  }
  return problems
}

let metaValidator: Ajv | undefined
/** An ajv with the validators' options, for the meta-schema check that names the bad keyword's path. */
function schemaChecker(): Ajv {
  if (!metaValidator) {
    metaValidator = new Ajv({ ...AJV_OPTIONS })
    addFormats(metaValidator)
  }
  return metaValidator
}

const detail = (error: ErrorObject) =>
  error.keyword === 'enum' ? `${error.message}: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` : (error.message ?? error.keyword)

/** One flow's step schemas as the server compiles them; a problem per step ajv refuses. */
function flowProblems(record: DocumentRecord): DocumentProblem[] {
  const flow = record.source as unknown as FlowLike
  const problems: DocumentProblem[] = []
  flow.steps.forEach((step, i) => {
    const checker = schemaChecker()
    if (checker.validateSchema(normalizeStepSchema(flow.id, step)) === false) {
      for (const error of checker.errors ?? []) {
        if (['anyOf', 'oneOf', 'if'].includes(error.keyword)) continue
        problems.push({ file: record.file, pointer: `/steps/${i}/schema${error.instancePath}`, message: `step ${step.id}: not a schema the form validators accept: ${detail(error)}` })
      }
    }
  })
  if (problems.length > 0) return problems
  try {
    cachedFlowSchemas(flow)
  } catch (error) {
    problems.push({ file: record.file, pointer: '/steps', message: `the step schemas do not compile: ${(error as Error).message}` })
  }
  return problems
}

/** Every problem that stops the server from serving this set (empty: it may be installed). */
export function checkServedSet(records: DocumentRecord[]): DocumentProblem[] {
  return [
    ...siteProblems(records),
    ...records.filter((r) => r.kind === 'flow').flatMap(flowProblems),
    // casino games and the jurisdictions' return ranges (a shared game outside a range is only withheld)
    ...gameSetProblems(records).filter((p) => p.severity === 'error'),
  ]
}
