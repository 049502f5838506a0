export { createExperimentsRouter, type ExperimentsRouterOptions } from './router'
export { loadExperimentsDocument, ExperimentsDocumentError, sanitizeHtml, sha256Hex, type ExperimentsDocument } from './document'
