/**
 * Expression evaluation: the browser's compact evaluator beside the reference CEL interpreter
 * (parsed once, evaluated many times), same expressions and contexts, same run.
 */
import vectors from '../tests/vectors/expressions.json'
import { evaluate } from '../kernel/core/expression'
import { opsPerSecond } from './measure'
import { compileExpression, createEnvironment } from '../tools/schema-lint/documents/cel-compiler'


export async function runExpressionsBench() {
  const env = createEnvironment()
  const context = vectors.contexts.russianPunter
  const ours = vectors.expressions.map((source) => {
    const compiled = compileExpression(source)
    if (!compiled.ok) throw new Error(compiled.error)
    return compiled.expression
  })
  const reference = vectors.expressions.map((source) => env.parse(source))
  // Warm up both.
  for (let i = 0; i < 2000; i++) {
    for (const e of ours) evaluate(e, context)
    for (const e of reference) {
      try {
        e(context as never)
      } catch {
        /* same failures as ours */
      }
    }
  }
  const oursRate = opsPerSecond(() => {
    for (const e of ours) evaluate(e, context)
  }) * ours.length
  const referenceRate = opsPerSecond(() => {
    for (const e of reference) {
      try {
        e(context as never)
      } catch {
        /* counted like a result */
      }
    }
  }) * reference.length
  return {
    expressions: ours.length,
    browserEvaluatorPerSecond: Math.round(oursRate),
    referenceInterpreterPerSecond: Math.round(referenceRate),
    ratio: Number((oursRate / referenceRate).toFixed(2)),
  }
}
