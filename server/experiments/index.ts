export { createExperimentsRouter, type ExperimentsRouterOptions } from './router'
export { loadExperimentsDocument, ExperimentsDocumentError, sanitizeHtml, sha256Hex, pinnedScriptCspSources, type ExperimentsDocument } from './document'
