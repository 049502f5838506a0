/**
 * Files picked in a form (the `file` widget): rjsf keeps JSON values only, so the widget keeps the
 * picked File here under its field id and gives the form the file's name as the field's value; the
 * `documents.upload` action takes the File from here when the step is submitted. Also the
 * browser-side file checks (type and size), the same limits the server enforces.
 */

const picked = new Map<string, File>()

export function rememberFile(fieldId: string, file: File | undefined): void {
  if (file) picked.set(fieldId, file)
  else picked.delete(fieldId)
}

/** The File picked in a field (`document` or its rjsf id `root_document`). */
export function pickedFile(field: string): File | undefined {
  return picked.get(field) ?? picked.get(`root_${field}`)
}

/** What the server accepts (server/identity/upload.ts): JPEG, PNG or PDF, at most 5 MB. */
export const UPLOAD_RULES = {
  maxBytes: 5 * 1024 * 1024,
  types: ['image/jpeg', 'image/png', 'application/pdf'],
  extensions: ['.jpg', '.jpeg', '.png', '.pdf'],
} as const

/** The rule a file breaks, as the server would name it, or null. */
export function fileProblem(file: Pick<File, 'name' | 'size' | 'type'>, rules = UPLOAD_RULES): 'FILE_TOO_LARGE' | 'UNSUPPORTED_FILE_TYPE' | null {
  const name = file.name.toLowerCase()
  const typeOk = (rules.types as readonly string[]).includes(file.type) || (file.type === '' && rules.extensions.some((e) => name.endsWith(e)))
  if (!typeOk) return 'UNSUPPORTED_FILE_TYPE'
  if (file.size > rules.maxBytes) return 'FILE_TOO_LARGE'
  return null
}
