/**
 * Finds broken relative links in markdown: a link whose file does not exist, or whose `#anchor`
 * names no heading of the markdown file it points to (GitHub's heading ids). Links in code spans
 * and fenced blocks are not links; `http(s):` and `mailto:` links are not checked (no network).
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'

export interface BrokenLink {
  /** The markdown file, relative to the root. */
  file: string
  line: number
  target: string
  reason: string
}

/** The text with fenced code blocks blanked (same line numbers). */
function withoutFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '))
}

/** The text with code blocks and code spans blanked (same line numbers). */
function withoutCode(text: string): string {
  return withoutFences(text).replace(/``[^\n]+?``|`[^`\n]+`/g, (span) => span.replace(/[^\n]/g, ' '))
}

/** Every link target with its line: inline `[text](target)`, images, reference definitions. */
export function linkTargets(markdown: string): { target: string; line: number }[] {
  const text = withoutCode(markdown)
  const found: { target: string; line: number }[] = []
  const lineAt = (index: number) => text.slice(0, index).split('\n').length
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: match[1], line: lineAt(match.index) })
  for (const match of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) found.push({ target: match[1], line: lineAt(match.index) })
  return found
}

/** GitHub's id of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingId(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-')
}

/** The ids of a markdown file's headings, repeated ones numbered as GitHub does (`-1`, `-2`). */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>()
  const seen = new Map<string, number>()
  for (const match of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const id = headingId(match[1].replace(/`/g, ''))
    const count = seen.get(id) ?? 0
    ids.add(count === 0 ? id : `${id}-${count}`)
    seen.set(id, count + 1)
  }
  return ids
}

const EXTERNAL = /^(https?:|mailto:)/i

function checkTarget(root: string, file: string, target: string): string | undefined {
  if (EXTERNAL.test(target)) return undefined
  let decoded: string
  try {
    decoded = decodeURI(target)
  } catch {
    return 'not a valid URI'
  }
  const [path, anchor] = decoded.split('#', 2) as [string, string | undefined]
  if (path.startsWith('/')) return 'a link from the site root, not a file of the repository (write it relative, or as a full URL)'
  const resolved = path === '' ? join(root, file) : join(root, dirname(file), path.split('?')[0])
  if (!resolved.startsWith(root + sep) && resolved !== root) return 'points outside the repository'
  if (!existsSync(resolved)) return 'no such file'
  if (anchor === undefined || anchor === '' || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) return undefined
  return headingIds(readFileSync(resolved, 'utf8')).has(anchor.toLowerCase()) ? undefined : `no heading #${anchor} in ${relative(root, resolved).split(sep).join('/')}`
}

/** The broken relative links of `files` (paths relative to `root`). */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = []
  for (const file of files)
    for (const { target, line } of linkTargets(readFileSync(join(root, file), 'utf8'))) {
      const reason = checkTarget(root, file, target)
      if (reason) broken.push({ file, line, target, reason })
    }
  return broken
}
