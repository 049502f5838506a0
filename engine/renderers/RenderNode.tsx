/**
 * Renders one document node: honours `when`, looks the kind up in the registry, and isolates it in
 * an error boundary so a renderer that throws takes down only its own node. An unknown kind is
 * skipped and reported; in development a small warning box marks where it was.
 */
import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react'
import { report } from '../core/report'
import type { DocumentNode } from '../../kernel/documents/types'
import { nodeRenderers } from './registry'
import { useEvaluate, useRuntime } from './runtime'

export interface NodeProps<N = DocumentNode> {
  node: N
}

const reportedUnknown = new Set<string>()

function UnknownNode({ node }: NodeProps) {
  const runtime = useRuntime()
  useEffect(() => {
    const key = `${node.type}:${node.id ?? ''}`
    if (reportedUnknown.has(key)) return
    reportedUnknown.add(key)
    report({ kind: 'unknown-node', message: `unknown node kind "${node.type}" skipped`, detail: { id: node.id } })
  }, [node.type, node.id])
  if (!runtime.development) return null
  return (
    <div className="node-warning" role="note" data-testid="unknown-node">
      Unknown node kind “{node.type}” skipped
    </div>
  )
}

class NodeErrorBoundary extends Component<{ kind: string; development: boolean; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    report({ kind: 'document', message: `node "${this.props.kind}" failed to render: ${error.message}`, detail: info.componentStack })
  }
  override render() {
    if (!this.state.failed) return this.props.children
    return this.props.development ? (
      <div className="node-warning" role="note" data-testid="failed-node">
        Node “{this.props.kind}” failed to render
      </div>
    ) : null
  }
}

export function RenderNode({ node }: NodeProps) {
  const runtime = useRuntime()
  const { when } = useEvaluate()
  if (!node || typeof node !== 'object' || typeof node.type !== 'string') return null
  if (node.when !== undefined && !when(node.when)) return null
  const Renderer = Object.prototype.hasOwnProperty.call(nodeRenderers, node.type)
    ? nodeRenderers[node.type as keyof typeof nodeRenderers]
    : UnknownNode
  return (
    <NodeErrorBoundary kind={node.type} development={runtime.development}>
      <Renderer node={node as never} />
    </NodeErrorBoundary>
  )
}

/** Renders a list of nodes (children, bodies). */
/** Document types close recursion loosely, so children arrive as unknown[]: each is checked by
 * `RenderNode` (an object with a string `type`) before it renders. */
export function RenderNodes({ nodes }: { nodes: readonly unknown[] | undefined }) {
  if (!Array.isArray(nodes)) return null
  return (
    <>
      {(nodes as DocumentNode[]).map((node, index) => (
        <RenderNode key={(node && typeof node.id === 'string' && node.id) || index} node={node} />
      ))}
    </>
  )
}
