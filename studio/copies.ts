/**
 * "Create a Spain copy of this document": a jurisdiction's own copy of a shared document lives at
 * `jurisdictions/<id>/<the shared path>` and replaces the shared one for that site. The copy starts
 * as the shared text with its `$schema` pointing at the kind schema from its deeper folder.
 */
export function jurisdictionCopyFile(file: string, jurisdiction: string): string | undefined {
  if (file.startsWith('jurisdictions/') || !/^[a-z0-9-]+$/.test(jurisdiction)) return undefined
  return `jurisdictions/${jurisdiction}/${file}`
}

export function jurisdictionCopyText(sharedText: string, copyFile: string): string {
  const doc = JSON.parse(sharedText) as Record<string, unknown>
  const depth = copyFile.split('/').length - 1
  if (typeof doc.$schema === 'string') doc.$schema = `${'../'.repeat(depth)}kinds/${doc.$schema.split('/').pop()}`
  return `${JSON.stringify(doc, null, 2)}\n`
}
