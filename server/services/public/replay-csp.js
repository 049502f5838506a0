// Session replay playback under the site's CSP (style-src 'self', no 'unsafe-inline'; issue 34):
// rrweb rebuilds a recorded page with style="" attributes and <style> elements, which such a
// policy refuses (even an empty <style>). Before playback the recorded events are rewritten so that
// no style is markup: a style attribute travels as rr_csp_style, a style sheet's text as
// rr_csp_css on an inert <template> in place of the <style>/<link>, and the plugin applies both
// through the CSSOM (element.style.cssText, constructed style sheets), which CSP allows. rrweb's
// own rules (blocked elements, paused animations) are adopted the same way. Plain JS, no eval.

const ELEMENT = 2
const TEXT = 3
const FULL_SNAPSHOT = 2
const INCREMENTAL = 3
const MUTATION = 0

/** One serialized node (and its children) without style markup; returns the node. */
function rewriteNode(node) {
  if (!node || typeof node !== 'object') return node
  if (node.type === ELEMENT && node.attributes) {
    const attributes = node.attributes
    if (typeof attributes.style === 'string') {
      attributes.rr_csp_style = attributes.style
      delete attributes.style
    }
    const sheet = node.tagName === 'style' || (node.tagName === 'link' && typeof attributes._cssText === 'string')
    if (sheet) {
      const text = typeof attributes._cssText === 'string' ? attributes._cssText : (node.childNodes ?? []).map((child) => (child.type === TEXT ? child.textContent ?? '' : '')).join('')
      node.tagName = 'template'
      node.attributes = { rr_csp_css: text }
      node.childNodes = []
      return node
    }
  }
  for (const child of node.childNodes ?? []) rewriteNode(child)
  return node
}

/** A mutation event's added nodes and attribute changes without style markup. */
function rewriteMutation(data) {
  for (const add of data.adds ?? []) rewriteNode(add.node)
  for (const change of data.attributes ?? []) {
    if (!change.attributes || !('style' in change.attributes) || (change.attributes.style !== null && typeof change.attributes.style !== 'string')) continue
    change.rr_csp_style = change.attributes.style ?? ''
    delete change.attributes.style
  }
}

/** The recorded events rewritten for playback under the CSP (a copy; the input is not changed). */
export function cspSafeEvents(events) {
  return events.map((original) => {
    const event = structuredClone(original)
    if (event.type === FULL_SNAPSHOT) rewriteNode(event.data?.node)
    else if (event.type === INCREMENTAL && event.data?.source === MUTATION) rewriteMutation(event.data)
    return event
  })
}

/** The sheets of one replay document, in the order their elements were built. */
function adoptedSheets(documentSheets, doc) {
  let entries = documentSheets.get(doc)
  if (!entries) documentSheets.set(doc, (entries = new Map()))
  return entries
}

/** The document's adopted sheets: rrweb's rules, then each sheet element's; once an event is
 * applied (`prune`), the sheets of elements no longer in the document go (a new snapshot, a removal). */
function refreshAdopted(documentSheets, doc, own, prune) {
  const entries = adoptedSheets(documentSheets, doc)
  // while a snapshot is built its elements are not in the document yet: pruned only afterwards
  if (prune) for (const element of [...entries.keys()]) if (!element.isConnected) entries.delete(element)
  doc.adoptedStyleSheets = [...own, ...entries.values()]
}

/** A built element's recorded style and style sheet, applied through the CSSOM. */
function applyBuilt(node, replayer, documentSheets, own) {
  const meta = replayer.getMirror().getMeta(node)
  const attributes = meta && meta.type === ELEMENT ? meta.attributes : undefined
  if (!attributes) return
  if (typeof attributes.rr_csp_style === 'string') node.style.cssText = attributes.rr_csp_style
  if (typeof attributes.rr_csp_css !== 'string') return
  const doc = node.ownerDocument
  const sheet = new doc.defaultView.CSSStyleSheet()
  sheet.replaceSync(attributes.rr_csp_css)
  adoptedSheets(documentSheets, doc).set(node, sheet)
  refreshAdopted(documentSheets, doc, own(doc), false)
}

/** The rrweb plugin that applies rr_csp_style and rr_csp_css through the CSSOM. */
export function cspStylePlugin(ownRules) {
  const documentSheets = new WeakMap()
  const ownSheets = new WeakMap()
  const own = (doc) => {
    if (!ownSheets.has(doc)) {
      const sheet = new doc.defaultView.CSSStyleSheet()
      ownRules.forEach((rule, index) => sheet.insertRule(rule, index))
      ownSheets.set(doc, [sheet])
    }
    return ownSheets.get(doc)
  }
  return {
    onBuild(node, { replayer }) {
      applyBuilt(node, replayer, documentSheets, own)
    },
    handler(event, _isSync, { replayer }) {
      const doc = replayer.iframe.contentDocument
      if (event.type === FULL_SNAPSHOT) {
        if (doc) refreshAdopted(documentSheets, doc, own(doc), true)
        return
      }
      if (event.type !== INCREMENTAL || event.data?.source !== MUTATION) return
      for (const change of event.data.attributes ?? []) {
        if (change.rr_csp_style === undefined) continue
        const node = replayer.getMirror().getNode(change.id)
        if (node && node.style) node.style.cssText = change.rr_csp_style
      }
      if (doc && (event.data.removes ?? []).length > 0) refreshAdopted(documentSheets, doc, own(doc), true)
    },
  }
}

/** rrweb's own rules (replay/index.ts `rules`, and the paused-animation rule), for adoption. */
export function replayerRules(blockClass = 'rr-block') {
  return [
    `.${blockClass} { background: currentColor }`,
    'noscript { display: none !important; }',
    'html.rrweb-paused *, html.rrweb-paused *:before, html.rrweb-paused *:after { animation-play-state: paused !important; }',
  ]
}

/** A Replayer that plays `events` under the CSP: rewritten events, the plugin, and no <style> of its own. */
export function cspReplayer(Replayer, events, config) {
  class CspReplayer extends Replayer {
    // rrweb inserts an empty <style> and fills it through insertRule; the policy refuses the
    // element itself, so its rules are adopted by the plugin instead
    insertStyleRules() {}
  }
  const plugin = cspStylePlugin(replayerRules(config.blockClass))
  return new CspReplayer(cspSafeEvents(events), { ...config, plugins: [...(config.plugins ?? []), plugin] })
}
