/**
 * The `form` node. Forms (rjsf, our theme, the flow's validators) live in a lazy chunk of their own:
 * screens without a form never load it.
 *
 * A page the server rendered carries the real form (issue 10): labels, inputs and buttons in the
 * page's language, the markup the browser renders, inside the same <Suspense> boundary. The browser
 * hydrates the page around it and leaves that boundary as the server's HTML (React keeps a boundary
 * whose lazy part has not loaded dehydrated) until the punter first uses the form — a touch, a key,
 * a focus inside it, or a submit — and only then loads the chunk, the flow's validators and hands
 * the boundary to React. Until then the fields are plain HTML: typing works (the form adopts what
 * was typed once live, ../form/flow-form.tsx) and a submit is held and made again once live, never
 * sent as a plain HTML form (a GET with the password in the address). A screen reached in the
 * browser (no server markup) loads the form at once, as before.
 */
import { lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ComponentType, type LazyExoticComponent } from 'react'
import type { NodeOf } from '../../../kernel/documents/types'
import { useRuntime, type EngineRuntime } from '../runtime'
import { FormPlaceholder } from './FormPlaceholder'
import { isoDate } from '../../../kernel/core/date-rules'
import { draftKept, FORM_HELD, FORM_PENDING, FORM_TODAY, FORM_USED, ServerFormsContext, type FormProps } from './form-ready'

/** The punter's first use of a form: any of these inside it (capture phase, on the document, so
 * they are seen before React's own listeners, which stop an event aimed at a dehydrated boundary). */
const USE_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'submit'] as const

interface Gate {
  host: Element
  used: Promise<void>
  release: () => void
}
const gates = new Map<Element, Gate>()

function onUse(event: Event) {
  const host = (event.target as Element | null)?.closest?.(`[${FORM_PENDING}]`)
  if (!host) return
  host.setAttribute(FORM_USED, '')
  if (event.type === 'submit') {
    event.preventDefault()
    host.setAttribute(FORM_HELD, '')
  }
  gates.get(host)?.release()
}

let listening = false
/** Watches for the first use of server-rendered forms (and holds their submits); web/main.tsx calls
 * it as the entry runs, before React's listeners exist. */
export function listen() {
  if (listening || typeof document === 'undefined') return
  listening = true
  for (const type of USE_EVENTS) document.addEventListener(type, onUse, { capture: true })
}

/** Waits for the punter's first use of the server-rendered form in `host` (at once if the page saw
 * it before this script ran: web/start-after-paint.js marks the host). */
function gateFor(host: Element): Gate {
  let release = () => {}
  const used = new Promise<void>((resolve) => (release = resolve))
  const gate = { host, used, release }
  if (host.hasAttribute(FORM_USED)) release()
  else gates.set(host, gate)
  void used.then(() => gates.delete(host))
  return gate
}

type LazyForm = { Form: LazyExoticComponent<ComponentType<FormProps>>; gate?: Gate }
const forms = new Map<string, LazyForm>()

/** The lazy form of a flow, loaded on first use when the server rendered it, else at once. */
function lazyForm(flowId: string, runtime: EngineRuntime): LazyForm {
  const known = forms.get(flowId)
  if (known) return known
  listen()
  const host = typeof document === 'undefined' ? null : document.querySelector(`[data-form-host="${CSS.escape(flowId)}"][${FORM_PENDING}]`)
  const gate = host ? gateFor(host) : undefined
  // progress kept from before a reload (issue 31): the form loads at once to show it, not on first use
  if (gate && draftKept(runtime.stores.site.getState().bootstrap?.site.jurisdiction ?? '', flowId)) gate.release()
  const Form = lazy(async () => {
    await gate?.used
    const chunk = await import('../form/FormNode')
    // the flow and validators before the first render: over server markup that render must be the
    // form itself; a failure leaves the form to show its own "unavailable" with a retry
    const prepared = await chunk.prepareForm(flowId, runtime).catch(() => undefined)
    const Loaded = chunk.default
    return { default: (props: FormProps) => <Loaded {...props} prepared={props.prepared ?? prepared} /> }
  })
  const made = { Form, gate }
  forms.set(flowId, made)
  return made
}

export function FormNode({ node }: { node: NodeOf<'form'> }) {
  const runtime = useRuntime()
  const server = useContext(ServerFormsContext)
  const [live, setLive] = useState(false)
  const onLive = useCallback(() => setLive(true), [])
  const label = runtime.t('shell.loading')
  const lazyOne = runtime.server ? undefined : lazyForm(node.flow, runtime)
  // the day the server rendered the form with, kept on its host: hydration renders the same
  const today = runtime.server ? isoDate(Date.now()) : lazyOne?.gate?.host.isConnected ? (lazyOne.gate.host.getAttribute(FORM_TODAY) ?? undefined) : undefined
  // a screen reached later in the browser: the server's form is gone, load at once
  useEffect(() => {
    if (lazyOne?.gate && !lazyOne.gate.host.isConnected) lazyOne.gate.release()
  }, [lazyOne])
  // A server-rendered form nobody has used yet still follows an operator's published change (its
  // flow, its texts): its flow is loaded at once (answered from the page's boot data, no request),
  // so a new documents version revalidates it like every document of the page, and when any
  // document changed the server's markup is given up for a fresh render with what is current. A
  // form in use is left alone: it hydrates with what the punter typed, then follows the change
  // itself (../form/flow-form.tsx).
  const [generation, setGeneration] = useState(0)
  // a live form renders again when the documents change (its texts, its flow): the boundary below
  // is kept across renders, so without this it would keep what it first rendered
  const documentsVersion = useSyncExternalStore(runtime.subscribeDocuments, runtime.documentsVersion, runtime.documentsVersion)
  useEffect(() => {
    const gate = lazyOne?.gate
    if (!gate || !gate.host.isConnected) return
    runtime.load('flow', node.flow).catch(() => undefined)
    return runtime.subscribeDocuments(() => {
      if (gate.host.hasAttribute(FORM_USED) || !gate.host.hasAttribute(FORM_PENDING)) return
      setGeneration((n) => n + 1)
      gate.release()
    })
  }, [lazyOne, runtime, node.flow])
  // one element for the boundary across re-renders: a dehydrated boundary that receives new props
  // before its code has loaded would give up the server's markup for the placeholder
  const boundary = useMemo(() => {
    const placeholder = <FormPlaceholder flowId={node.flow} className="form-loading loading" label={label} headed={node.headed !== false} />
    if (runtime.server) {
      const prepared = server?.prepared(node.flow)
      // no flow or validators on the server (first-screen.tsx then keeps the boot shell)
      if (!server || !prepared) return null
      return (
        <Suspense fallback={placeholder}>
          <server.Form node={node} prepared={prepared} overServerMarkup today={today} />
        </Suspense>
      )
    }
    const { Form, gate } = lazyOne!
    // a new generation is a new boundary: React drops the server's markup and renders it afresh
    return (
      <Suspense key={generation} fallback={placeholder}>
        <Form node={node} onLive={onLive} overServerMarkup={generation === 0 && Boolean(gate?.host.isConnected)} today={today} />
      </Suspense>
    )
    // documentsVersion: a new element on a change, so a live form renders what is current
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [node, label, runtime.server, server, lazyOne, onLive, today, generation, documentsVersion])
  if (boundary === null) return <FormPlaceholder flowId={node.flow} className="form-loading loading" label={label} headed={node.headed !== false} />
  return (
    <div className="form-host" data-form-host={node.flow} {...{ [FORM_TODAY]: today }} {...(live ? {} : { [FORM_PENDING]: '' })}>
      {boundary}
    </div>
  )
}
