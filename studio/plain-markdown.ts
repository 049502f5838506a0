/**
 * Stands in for codemirror-json-schema's markdown renderer (aliased in vite.studio.config.ts):
 * the original loads markdown-it and shiki, whose highlighter compiles WebAssembly, which the
 * admin CSP (no 'unsafe-eval', no 'wasm-unsafe-eval') refuses. Schema descriptions are shown as
 * escaped plain text instead.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function renderMarkdown(markdown: string, _inline = true): string {
  return String(markdown ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c])
}
