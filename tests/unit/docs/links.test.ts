/**
 * `npm run docs:check` tolerates no broken relative link in README.md, CHANGELOG.md and docs/
 * (a missing file, or a missing heading of a markdown file), and no dependency of package.json
 * without its row in the README's "why each is there" table (nor a row for a package it lacks).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { docsFindings } from '../../../tools/docs-check'
import { dependencyProblems } from '../../../tools/docs/dependency-table'
import { brokenLinks, headingIds } from '../../../tools/docs/links'

const ROOT = join(import.meta.dirname, '..', '..', '..')

function repository(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'parlay-docs-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('relative links', () => {
  const root = repository({
    'README.md': [
      '# Parlay',
      'See [the guide](docs/guide.md), [its start](docs/guide.md#getting-started) and [gone](docs/gone.md).',
      'A [wrong heading](docs/guide.md#nowhere), [the site](/docs/api), [the web](https://example.org/x).',
      '`[not a link](docs/missing.md)` and',
      '```',
      '[not a link either](docs/missing.md)',
      '```',
      '[ref]: docs/absent.md',
    ].join('\n'),
    'docs/guide.md': '# Guide\n\n## Getting started\n\nBack to [the README](../README.md#parlay).\n',
  })

  it('reports a missing file, a missing heading, a link from the site root and a reference definition, with file and line; code is not a link', () => {
    const broken = brokenLinks(root, ['README.md', 'docs/guide.md']).map((b) => `${b.file}:${b.line} ${b.target}`)
    expect(broken).toEqual(['README.md:2 docs/gone.md', 'README.md:3 docs/guide.md#nowhere', 'README.md:3 /docs/api', 'README.md:8 docs/absent.md'])
  })

  it("names headings as GitHub does: lower case, punctuation dropped, spaces to hyphens, repeats numbered", () => {
    expect([...headingIds('# Action: popup.open\n## Run it\n## Run it\n### `npm test` (15 min)\n## Curaçao\n')]).toEqual(['action-popupopen', 'run-it', 'run-it-1', 'npm-test-15-min', 'curaçao'])
  })
})

describe('the dependencies table', () => {
  const readme = '# X\n\n## Dependencies and why each is there\n\n| package | why |\n|---|---|\n| `react`, `react-dom` | the renderers |\n| `left-pad` | gone |\n\n## Next\n\n| `vite` | not in the table |\n'

  it('reports a package of package.json without a row, and a row for a package package.json does not have', () => {
    expect(dependencyProblems(readme, { dependencies: { react: '1', 'react-dom': '1' }, devDependencies: { vite: '1' } })).toEqual({ unexplained: ['vite'], stale: ['left-pad'] })
  })
})

describe('this repository', () => {
  it('has no broken link in README.md, CHANGELOG.md or docs/, and its README explains every dependency of package.json', () => {
    expect(docsFindings(ROOT)).toEqual([])
  })
})
