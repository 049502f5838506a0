/**
 * `npm run check:length` (part of `npm test`): fails listing file:line:name:length for every
 * function over 80 lines in hand-written code (the rule and its folders: tools/function-length/check.ts),
 * except the ones tools/function-length/still-long.ts still excuses (and not past their length).
 * `--root <dir>` checks another tree, `--strict` ignores the still-long list (the rule's own test
 * runs both on a fixture).
 */
import { resolve } from 'node:path'
import { CHECKED_FOLDERS, MAX_FUNCTION_LINES, formatLongFunction, judge, longFunctions } from './function-length/check'
import { STILL_LONG } from './function-length/still-long'

const at = process.argv.indexOf('--root')
const root = resolve(at >= 0 ? process.argv[at + 1] : '.')
const { violations, stale } = judge(longFunctions(root), process.argv.includes('--strict') ? {} : STILL_LONG)
if (violations.length > 0) {
  console.error(`${violations.length} function(s) over ${MAX_FUNCTION_LINES} lines (split into named steps, handlers, components or hooks):`)
  for (const one of violations) console.error(formatLongFunction(one))
}
if (stale.length > 0) console.error(`tools/function-length/still-long.ts lists functions no longer over ${MAX_FUNCTION_LINES} lines (delete these lines): ${stale.join(', ')}`)
if (violations.length > 0 || stale.length > 0) process.exit(1)
console.log(`function length: no function over ${MAX_FUNCTION_LINES} lines in ${CHECKED_FOLDERS.join(', ')} (${Object.keys(STILL_LONG).length} still excused)`)
