/**
 * The first screen rendered on the server (issue 10): the same React tree the browser renders
 * first (Shell: header, left menu, the route's screen, footer) from the same boot entries the
 * page carries, so the HTML a phone receives already shows the real page — the lobby's game
 * cards with their images, the texts in the page's language — before any script has arrived.
 * The browser then mounts React over it (web/main.tsx) with identical markup in one commit.
 *
 * Guest view only: a punter's session lives in the browser's storage, which the server never
 * sees, so the server renders what a guest sees; a returning punter's page switches to their
 * header in React's first commit, as it did from the boot shell before.
 *
 * Nothing here touches window, document or storage: the stores are created without storage, the
 * documents and screen data are answered from the boot entries, and actions do nothing (no effect
 * runs on the server). A tree that throws answers undefined and the page keeps the boot shell.
 */
import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router-dom'
import { createEngineStores, createI18n, withLocale } from './core'
import { documentUrl, type BootEntry } from '../kernel/core/boot-data'
import { consentStore } from './core/consent'
import type { SiteBootstrap } from '../kernel/core/contracts'
import type { TranslationsResource } from './core/documents'
import type { FlowDocument, FooterDocument } from '../kernel/documents/types'
import FlowForm from './renderers/form/flow-form'
import type { ValidatorModule } from './renderers/form/validator-module'
import { ServerFormsContext, type ServerForms } from './renderers/nodes/form-ready'
import { RuntimeProvider, type EngineRuntime } from './renderers/runtime'
import type { BrowserEngine } from './renderers/shell/browser-runtime'
import { Shell } from './renderers/shell/Shell'
import { PopupView } from './renderers/popups/PopupView'

export interface FirstScreenInput {
  /** The page's path and query, as the browser's router will see it. */
  url: string
  pathname: string
  locale: string
  bootstrap: SiteBootstrap
  translations: TranslationsResource | undefined
  /** The boot entries of the page (documents by their API URL). */
  entries: readonly BootEntry[]
  /** The screen's data sources: name, filled URL and the payload the gateway unwraps. */
  data: ReadonlyArray<{ name: string; url: string; value: unknown }>
  /** The request's Cookie header (the consent cookie decides whether the banner shows). */
  cookies: string
  /** The visitor's experiment groups (the `experiments` store's value), as the page's boot data carries them. */
  experiments?: Record<string, unknown>
  /** The precompiled validator module of each flow the screen's forms show (by flow id): a form
   * is rendered as the real form, which needs them (issue 10). */
  validators?: Readonly<Record<string, { flow: string; schemas: Record<string, Record<string, unknown>>; validators: unknown }>>
  /** A popup rendered open over the screen (only the publish gate asks: documents/candidate.ts);
   * its document is one of the entries. */
  popup?: string
  /** Told why the screen could not be rendered (the page then keeps the boot shell). */
  onError?: (error: unknown) => void
}

function serverRuntime(input: FirstScreenInput): EngineRuntime {
  const { bootstrap, locale } = input
  const byUrl = new Map(input.entries.map((entry) => [entry.url, entry.body]))
  const stores = createEngineStores({ site: bootstrap, locale })
  const data = new Map(input.data.map((source) => [source.url, source.value]))
  for (const source of input.data) stores.screenData.getState().setData(source.name, source.value)
  if (input.experiments) stores.experiments.getState().setValues(input.experiments)
  const i18n = createI18n({ locale, fallbackLocale: bootstrap.site.defaultLocale, currencyDisplay: bootstrap.site.currencyDisplay })
  if (input.translations) i18n.setResources(locale, input.translations.resources, input.translations.fallbacks)
  i18n.setLocale(locale)
  const peek = <T,>(kind: string, id: string) => byUrl.get(documentUrl(kind, id, locale)) as T | undefined
  // a first visit (no consent cookie) gets the consent banner in the first screen, as the browser
  // shows it; nothing is written here
  consentStore(stores, { jar: { read: () => input.cookies, write: () => {} }, settings: peek<FooterDocument>('footer', 'footer')?.cookieConsent })
  return {
    stores,
    development: bootstrap.site.development,
    server: true,
    // nothing runs on the server: actions start in effects or on a tap, both browser-only
    run: async () => ({ ok: true, value: undefined }),
    async load<T>(kind: string, id: string) {
      const doc = peek<T>(kind, id)
      return doc === undefined ? { ok: false as const, code: 'NOT_FOUND', status: 404 } : { ok: true as const, value: doc }
    },
    peek,
    peekData: (url) => (data.has(url) ? { value: data.get(url) } : undefined),
    fetchData: async (url) => data.get(url) ?? null,
    t: (key, options) => i18n.t(key, options),
    href: (path) => withLocale(path, locale, bootstrap.site, input.pathname),
    subscribeDocuments: () => () => {},
    documentsVersion: () => 0,
  }
}

/** The markup of the page's first screen, or undefined when it cannot be rendered here. */
export function renderFirstScreen(input: FirstScreenInput): string | undefined {
  try {
    const runtime = serverRuntime(input)
    const engine: BrowserEngine = {
      runtime,
      bootstrap: input.bootstrap,
      locale: input.locale,
      setNavigate: () => {},
      watch: () => () => {},
      checkVersion: () => {},
    }
    // a form renders as the real form from the flow the page carries and its validators; one it
    // cannot (no flow, no validators) would be a placeholder the browser's hydration would not match
    const missing: string[] = []
    const forms: ServerForms = {
      Form: FlowForm,
      prepared(flowId) {
        const flow = runtime.peek<FlowDocument>('flow', flowId)
        const validators = input.validators?.[flowId]
        if (flow && validators) return { flow, validators: validators as ValidatorModule }
        missing.push(flowId)
        return undefined
      },
    }
    const markup = renderToString(
      <RuntimeProvider runtime={runtime}>
        <ServerFormsContext.Provider value={forms}>
          <StaticRouter location={input.url}>
            <Shell engine={engine} />
            {/* drawn as the shell's popup host draws an open one (a store's change is not seen in a server render) */}
            {input.popup && <PopupView popup={{ id: input.popup, type: 'default', stack: true, params: {}, isCloseable: true, isFrozen: false }} top />}
          </StaticRouter>
        </ServerFormsContext.Provider>
      </RuntimeProvider>,
    )
    if (missing.length > 0) throw new Error(`a form could not be rendered: ${missing.join(', ')}`)
    // a part that suspended anyway leaves a boundary for the browser to render, with React's
    // message (and, in development, a stack) in a <template>: not a first screen to send
    if (markup.includes('<!--$!-->')) throw new Error('a part of the first screen suspended')
    // a button does nothing until React has taken over (links are real navigations): say so, to
    // assistive technology and to tools that wait for a control to be enabled; the browser drops
    // these as it takes over (web/main.tsx). Not a form's buttons: a submit made before the form is
    // live is held and made again once it is (engine/renderers/nodes/FormNode.tsx)
    return markup.replace(/<form[\s>][^]*?<\/form>|<button(?=[\s>])/g, (found) => (found.startsWith('<form') ? found : '<button aria-disabled="true"'))
  } catch (error) {
    input.onError?.(error)
    return undefined
  }
}
