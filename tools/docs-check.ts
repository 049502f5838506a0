/**
 * `npm run docs:check` (after the reference's own staleness check, tools/docs-reference.ts):
 * every relative link in README.md, CHANGELOG.md and docs/**.md points to a file that exists (and
 * to a heading that exists, for a markdown anchor), and the README's dependencies table explains
 * every package of package.json and no other. Tolerates nothing: any finding exits 1.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { dependencyProblems } from './docs/dependency-table'
import { brokenLinks } from './docs/links'

/** README.md, CHANGELOG.md and every markdown file under docs/, relative to `root`. */
export function documentationFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []))
  return ['README.md', 'CHANGELOG.md', ...walk(join(root, 'docs')).map((file) => relative(root, file).split(sep).join('/'))]
}

/** Every finding, one line each. */
export function docsFindings(root: string): string[] {
  const files = documentationFiles(root)
  const missing = files.filter((file) => !existsSync(join(root, file)))
  const findings = missing.map((file) => `${file}: missing`)
  findings.push(...brokenLinks(root, files.filter((file) => !missing.includes(file))).map((b) => `${b.file}:${b.line}: ${b.target}: ${b.reason}`))
  const deps = dependencyProblems(readFileSync(join(root, 'README.md'), 'utf8'), JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')))
  for (const name of deps.unexplained) findings.push(`README.md: dependency ${name} has no row in "Dependencies and why each is there"`)
  for (const name of deps.stale) findings.push(`README.md: the dependencies table names ${name}, which package.json does not have`)
  return findings
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const findings = docsFindings(join(import.meta.dirname, '..'))
  for (const finding of findings) console.error(finding)
  if (findings.length > 0) process.exit(1)
  console.log('docs: every link resolves; every dependency is explained')
}
