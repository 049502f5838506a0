/**
 * One problem in a document: `file:json-pointer: message` (the loader's and the overlay resolver's report).
 */
export interface DocumentProblem {
  file: string
  pointer: string
  message: string
  severity?: 'error' | 'warning'
}
