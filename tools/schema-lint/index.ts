/**
 * The document tools' one public entry (issue 32): the loader, the lint and the differ, as the
 * server, the CLI and the studio use them. Nothing outside tools/schema-lint imports a file behind
 * this entry (.dependency-cruiser.cjs, `npm run walls`).
 */
export * from './documents/loader'
export * from './documents/ajv-cache'
export * from './lint'
export * from './diff/differ'
export * from './diff/formats'
export * from './diff/classify'
export * from './diff/sources'
export * from './diff/overlay-conflicts'
export * from './diff/overlay-status'
export * from './diff/punter-words'
export * from './rules/regulatory'
export * from './rules/regulatory-diff'
export * from './rules/identity-rules'
export * from './rules/server-only'
