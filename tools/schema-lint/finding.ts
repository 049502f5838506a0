/**
 * One schema-lint finding. Its own file so lint.ts (which runs the rules) and each rule under
 * rules/ (which makes findings) both import it without importing each other.
 */
import type { DocumentProblem } from './documents/loader'

export interface Finding extends DocumentProblem {
  severity: 'error' | 'warning'
  rule: string
}
