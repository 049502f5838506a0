#!/usr/bin/env node
/**
 * Issue 32 item 1: moves the pure shared rules into kernel/, the document loader into the document
 * tools, the server's first-screen renderer into engine/ssr.tsx, and rewrites every relative import
 * (and every textual mention of a moved path) so the tree keeps compiling. Re-runnable:
 *   node tools/walls/move.mjs          git mv what is still at its old path, then fix imports
 *   node tools/walls/move.mjs --fix    only fix imports that still point at an old path (after a merge)
 * The imports are resolved against the layout before the move, so a file written for the old
 * layout (another branch merged later) is fixed the same way.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'

const ROOT = join(import.meta.dirname, '..', '..')
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' })

const KERNEL_CORE = ['action-choices', 'amount-input', 'boot-data', 'calendar-month', 'contracts', 'context-declaration', 'date-rules', 'error-catalogue', 'expression', 'form-texts', 'format', 'identity-states', 'lobby-filter', 'locale-path', 'match-clock', 'money', 'odds', 'payout', 'personal-text', 'phone-rule', 'products', 'route-match', 'routes', 'settings-defaults', 'time-zones', 'error-keys']
const KERNEL_EXPERIMENTS = ['assignment', 'client', 'conditions', 'constants', 'context', 'flags', 'groups-cookie', 'hash', 'last-groups', 'params', 'types', 'visitor', 'web-builder', 'geo']

/** old path → new path, files only. */
export function mapping() {
  const map = new Map()
  const add = (from, to) => map.set(from, to)
  for (const name of KERNEL_CORE) add(`engine/core/${name}.ts`, `kernel/core/${name}.ts`)
  for (const name of KERNEL_EXPERIMENTS) add(`engine/experiments/${name}.ts`, `kernel/experiments/${name}.ts`)
  for (const name of ['kinds.ts', 'names.ts', 'types.ts', 'signup-variants.ts', 'signup-variants.json']) add(`engine/documents/${name}`, `kernel/documents/${name}`)
  for (const file of listed('engine/actions/definitions/')) add(file, file.replace('engine/actions/definitions/', 'kernel/actions/'))
  for (const file of listed('shared/games/')) add(file, file.replace('shared/games/', 'kernel/games/'))
  add('shared/messages/outbox-templates.ts', 'kernel/messages/outbox-templates.ts')
  add('shared/signup/code-channels.ts', 'kernel/signup/code-channels.ts')
  add('shared/auth/token-update.ts', 'kernel/auth/token-update.ts')
  add('shared/punters/account-statuses.ts', 'kernel/punters/account-statuses.ts')
  for (const name of ['overlay-merge', 'overlay-set', 'overlay-diff', 'overlay-schema', 'page-path', 'problem']) add(`shared/documents/${name}.ts`, `kernel/documents/${name}.ts`)
  for (const name of ['loader', 'cel-compiler', 'server-only', 'ajv-cache']) add(`shared/documents/${name}.ts`, `tools/schema-lint/documents/${name}.ts`)
  add('engine/auth/login-classification.ts', 'kernel/auth/login-classification.ts')
  add('engine/auth/punter-cookie.ts', 'kernel/auth/punter-cookie.ts')
  add('engine/core/consent-cookie.ts', 'kernel/core/consent-cookie.ts')
  add('server/http/first-screen.tsx', 'engine/ssr.tsx')
  // the CLIs use the document tools as the server does, through their entry (the diff CLI also reads the server's store)
  add('tools/schema-lint/cli.ts', 'tools/cli/schema-lint.ts')
  add('tools/schema-lint/diff/cli.ts', 'tools/cli/schema-diff.ts')
  return map
}

/** Files git knows under a folder, at their old path (before the move) or, once moved, mapped back. */
function listed(folder) {
  const now = git('ls-files', folder).split('\n').filter(Boolean)
  if (now.length) return now
  const target = folder.replace('engine/actions/definitions/', 'kernel/actions/').replace('shared/games/', 'kernel/games/')
  return git('ls-files', target).split('\n').filter(Boolean).map((f) => f.replace(target, folder))
}

const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/
const TEXT = /\.(ts|tsx|mts|mjs|js|cjs|md|json|sh|yml|yaml|html)$/
const SKIP_TEXT = new Set([...(process.argv.includes('--with-readme') ? [] : ['README.md']), 'CHANGELOG.md', 'package-lock.json', 'tools/walls/move.mjs'])
const EXTENSIONS = ['', '.ts', '.tsx', '.json', '/index.ts', '/index.tsx']

function trackedFiles() {
  return git('ls-files', '--cached', '--others', '--exclude-standard').split('\n').filter((f) => f && existsSync(join(ROOT, f)))
}

function main() {
  const map = mapping()
  const fixOnly = process.argv.includes('--fix')
  const back = new Map([...map].map(([from, to]) => [to, from]))
  if (!fixOnly) {
    for (const [from, to] of map) {
      if (!existsSync(join(ROOT, from))) continue
      mkdirSync(dirname(join(ROOT, to)), { recursive: true })
      git('mv', from, to)
    }
  }
  const now = trackedFiles()
  const nowSet = new Set(now)
  // the tree as it was before the move: moved files back at their old path
  const oldSet = new Set(now.map((f) => back.get(f) ?? f))
  let changed = 0
  for (const file of now) {
    if (!TEXT.test(file) || SKIP_TEXT.has(file) || file.startsWith('node_modules/')) continue
    const before = readFileSync(join(ROOT, file), 'utf8')
    let text = before
    if (SOURCE.test(file)) text = rewriteImports(text, file, back.get(file) ?? file, map, nowSet, oldSet)
    text = rewriteMentions(text, map)
    if (file.startsWith('server/') || file.startsWith('tools/cli/')) text = throughToolsEntry(text)
    if (text !== before) {
      writeFileSync(join(ROOT, file), text)
      changed++
    }
  }
  console.log(`${fixOnly ? 'fixed' : 'moved and fixed'}: ${changed} files rewritten`)
}

function resolveIn(set, base) {
  for (const ext of EXTENSIONS) if (set.has(base + ext)) return { file: base + ext, ext }
  return undefined
}

const IMPORT = /((?:from|import|require|vi\.mock|vi\.importActual|import\.meta\.resolve)\s*\(?\s*)(['"])(\.{1,2}\/[^'"\n]*)\2/g

function rewriteImports(text, file, oldFile, map, nowSet, oldSet) {
  const moved = file !== oldFile
  return text.replace(IMPORT, (whole, lead, quote, spec) => {
    if (!moved && resolveIn(nowSet, posix.join(posix.dirname(file), spec))) return whole
    // written for the old layout; or, in a moved file, already pointing at a target's new place
    const old = resolveIn(oldSet, posix.join(posix.dirname(oldFile), spec)) ?? (moved ? resolveIn(nowSet, posix.join(posix.dirname(oldFile), spec)) : undefined)
    if (!old) return whole
    const target = map.get(old.file) ?? old.file
    if (!nowSet.has(target)) return whole
    const path = old.ext === '' ? target : old.ext.startsWith('/index') ? posix.dirname(target) : target.replace(/\.(tsx?|json)$/, '')
    let rel = posix.relative(posix.dirname(file), path)
    if (!rel.startsWith('.')) rel = `./${rel}`
    return `${lead}${quote}${rel}${quote}`
  })
}

/** The server reaches the document tools through their entry only: `…/tools/schema-lint/diff/differ` → `…/tools/schema-lint`. */
function throughToolsEntry(text) {
  return text.replace(/((?:from|import)\s*\(?\s*)(['"])((?:\.\.\/)+(?:tools\/)?schema-lint)\/[^'"\n]+\2/g, '$1$2$3$2')
}

/** `engine/core/money.ts`, `engine/core/money` in comments, docs and scripts → the new path. */
function rewriteMentions(text, map) {
  for (const [from, to] of map) {
    const stem = from.replace(/\.(tsx?|json)$/, '')
    const newStem = to.replace(/\.(tsx?|json)$/, '')
    const pattern = new RegExp(`(?<![\\w./-])${stem.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(\\.(?:tsx?|json))?(?![\\w-])`, 'g')
    text = text.replace(pattern, (_m, ext) => (ext ? (ext === from.slice(stem.length) ? to : newStem + ext) : newStem))
  }
  return text
    .replace(/(?<![\w./-])engine\/actions\/definitions\//g, 'kernel/actions/')
    .replace(/(?<![\w./-])engine\/actions\/definitions(?![\w/-])/g, 'kernel/actions')
    .replace(/(?<![\w./-])engine\/documents\//g, 'kernel/documents/')
    .replace(/(?<![\w./-])shared\/games\//g, 'kernel/games/')
}

main()
