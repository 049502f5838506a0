/** The top-level boundary: a client-side exception anywhere outside a node shows the spec's page. */
import { Component, type ErrorInfo, type ReactNode } from 'react'
import { report } from '../../core/report'
import { CLIENT_EXCEPTION, ErrorPage } from './ErrorPage'

export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    report({ kind: 'document', message: `application error: ${error.message}`, detail: info.componentStack })
  }
  override render() {
    return this.state.failed ? (
      <main className="app-main">
        <ErrorPage title={CLIENT_EXCEPTION} />
      </main>
    ) : (
      this.props.children
    )
  }
}
