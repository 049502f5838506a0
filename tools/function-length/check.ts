/**
 * The function-length rule (issue 32, "short units"): no function, method, arrow function or
 * accessor in hand-written code spans more than MAX_FUNCTION_LINES lines, from the line its
 * declaration starts on to the line of its closing brace (as ESLint's max-lines-per-function counts,
 * blank and comment lines included). A long router closure becomes a named handler, a long React
 * component smaller components or hooks, a long builder named steps.
 *
 * Read with the TypeScript compiler's parser only (no type check): fast, and the same syntax tree
 * tsc sees. The folders come from CHECKED_FOLDERS; generated code is never checked (GENERATED).
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

export const MAX_FUNCTION_LINES = 80

/** The hand-written code the rule covers, one list. A folder that does not exist (yet) is skipped. */
export const CHECKED_FOLDERS = ['kernel', 'engine', 'server', 'studio', 'tools', 'shared', 'web'] as const

/**
 * Generated code, never checked: dependencies and build output, the documents reference and the
 * emitted kind schemas (docs/reference, schemas/kinds: Markdown and JSON written by
 * `npm run docs:reference` / `schemas:emit`, listed so a generated .ts there would be skipped too)
 * and web/public (the built service worker and copied assets).
 */
export const GENERATED = ['node_modules', 'dist', 'docs/reference', 'schemas/kinds', 'web/public'] as const

export interface LongFunction {
  file: string
  line: number
  name: string
  length: number
}

const SOURCE = /\.(ts|tsx|mts|cts)$/
const isGenerated = (path: string) => GENERATED.some((skip) => path === skip || path.startsWith(`${skip}/`) || path.includes(`/${skip}/`))

/** Every TypeScript file under the checked folders of `root`, as paths relative to it. */
export function sourceFiles(root: string, folders: readonly string[] = CHECKED_FOLDERS): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir)).sort()) {
      const path = `${dir}/${entry}`
      if (isGenerated(path)) continue
      if (statSync(join(root, path)).isDirectory()) walk(path)
      else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) found.push(path)
    }
  }
  for (const folder of folders) if (existsSync(join(root, folder))) walk(folder)
  return found
}

/** A readable name for a function node: its own, or the variable, property or call it sits in. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as { name?: ts.Node }
  if (named.name && !ts.isComputedPropertyName(named.name)) return named.name.getText(source)
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source)
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(source).replace(/\s+/g, '')
    const first = parent.arguments[0]
    const label = first && ts.isStringLiteralLike(first) ? ` ${first.text}` : ''
    return `${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee}(${label.trim()}) callback`
  }
  return '(anonymous)'
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node)

/** The functions of one file's text longer than `max` lines. */
export function longFunctionsIn(file: string, text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const found: LongFunction[] = []
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const length = last - first + 1
      if (length > max) found.push({ file, line: first + 1, name: nameOf(node, source), length })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** Every function over the limit under `root`'s checked folders, longest first. */
export function longFunctions(root: string, folders: readonly string[] = CHECKED_FOLDERS, max = MAX_FUNCTION_LINES): LongFunction[] {
  return sourceFiles(root, folders)
    .flatMap((file) => longFunctionsIn(file, readFileSync(join(root, file), 'utf8'), max))
    .sort((a, b) => b.length - a.length || a.file.localeCompare(b.file) || a.line - b.line)
}

export const formatLongFunction = (found: LongFunction) => `${found.file}:${found.line}:${found.name}:${found.length}`

/** The key of a function in a still-long list: its file's name (not its folder) and its name. */
export const stillLongKey = (found: LongFunction) => `${found.file.split('/').pop()}:${found.name}`

export interface Verdict {
  /** Functions over the limit that the still-long list does not excuse (listed ones that grew). */
  violations: LongFunction[]
  /** Still-long entries no function needs any more (split or removed): delete them. */
  stale: string[]
}

/** Judges what `longFunctions` found against the still-long list (tools/function-length/still-long.ts). */
export function judge(found: LongFunction[], stillLong: Readonly<Record<string, number>>): Verdict {
  const violations = found.filter((one) => !(stillLongKey(one) in stillLong) || one.length > stillLong[stillLongKey(one)])
  const present = new Set(found.map(stillLongKey))
  return { violations, stale: Object.keys(stillLong).filter((key) => !present.has(key)) }
}
