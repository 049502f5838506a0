import type { DocumentNode, NodeOf } from '../../../kernel/documents/types'
import { RenderNode } from '../RenderNode'
import { LeadingRow, ScopeProvider, useEvaluate } from '../runtime'
import { useOffline } from '../use-offline'

/** Rows on screen at the first paint of a 360 px phone (two grid columns, two rows). */
const LEADING_ROWS = 4

const itemKey = (item: unknown, index: number) =>
  item && typeof item === 'object' && 'id' in item && (typeof item.id === 'string' || typeof item.id === 'number') ? String(item.id) : String(index)

/** Static `items`, or `source` (a binding to a list) rendered through `template` with `item` in
 * the context. Layouts: list, grid, carousel. */
export function ListNode({ node }: { node: NodeOf<'list'> }) {
  const { value, text } = useEvaluate()
  const offline = useOffline()
  const layout = node.layout ?? 'list'
  let rows: { key: string; node: DocumentNode; item?: unknown }[] = []
  // a source that never loaded (null) while offline is not an empty list (issue 31: "No
  // promotions right now" offline): the list says the page is offline instead
  let unloaded = false
  if (node.source !== undefined) {
    const source = value(node.source)
    unloaded = !Array.isArray(source)
    const items = Array.isArray(source) ? source : []
    if (node.template) rows = items.map((item, i) => ({ key: itemKey(item, i), node: node.template as DocumentNode, item }))
  } else if (Array.isArray(node.items)) {
    rows = (node.items as DocumentNode[]).map((child, i) => ({ key: (child && typeof child.id === 'string' && child.id) || String(i), node: child }))
  }
  if (rows.length === 0 && unloaded && offline)
    return (
      <p className="node-list__empty" data-testid={node.testId} data-offline="">
        {text('offline.list')}
      </p>
    )
  if (rows.length === 0)
    return node.empty ? (
      <p className="node-list__empty" data-testid={node.testId}>
        {text(node.empty)}
      </p>
    ) : null
  return (
    <ul className="node-list" data-layout={layout} data-testid={node.testId}>
      {rows.map((row, index) => (
        <li key={row.key}>
          <LeadingRow value={index < LEADING_ROWS}>
            {row.item === undefined ? (
              <RenderNode node={row.node} />
            ) : (
              <ScopeProvider item={row.item}>
                <RenderNode node={row.node} />
              </ScopeProvider>
            )}
          </LeadingRow>
        </li>
      ))}
    </ul>
  )
}
