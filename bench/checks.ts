/**
 * Speed of two checks that run on every document change (issue 33 item 5: timing-only benches out
 * of the test suite, where a loaded CI machine made them fail while the rule they time held): the
 * translations lint over the shipped documents (budget 1.5 s) and compiling a flow's validators,
 * ajv and esbuild (budget 5 s). Their results stay tested in tests/unit/core/translations-lint.test.ts
 * and tests/unit/forms/validators.test.ts; `npm run bench checks` prints each time beside its budget.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadDocuments } from '../tools/schema-lint/documents/loader'
import { translationFindings } from '../tools/schema-lint/rules/translations'
import { compileFlowValidators, type FlowLike } from '../server/validators'

const ROOT = join(import.meta.dirname, '..')
const RUNS = 5

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

export async function runChecksBench(): Promise<Record<string, unknown>> {
  const { records } = loadDocuments(join(ROOT, 'schemas'))
  const lint: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    translationFindings(records)
    lint.push(performance.now() - started)
  }
  const flow = JSON.parse(readFileSync(join(ROOT, 'schemas/flows/demo-contact.json'), 'utf8')) as FlowLike
  const compile: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const compiled = await compileFlowValidators(flow)
    compile.push(compiled.compileMs + compiled.bundleMs)
  }
  const lintMs = Math.round(median(lint))
  const compileMs = Math.round(median(compile))
  return {
    translationsLintMs: { median: lintMs, budget: 1500, within: lintMs < 1500 },
    flowValidatorsCompileMs: { median: compileMs, budget: 5000, within: compileMs < 5000 },
  }
}
