/**
 * Wires the framework-free core into an `EngineRuntime` for the browser: one set of stores, the
 * document client (ETag, last good copy, version polling), i18n, the gateway and the action
 * environment. Everything the React layer touches goes through the returned runtime.
 *
 * First load (issue 10): the page carries its boot data (kernel/core/boot-data.ts), answered here
 * in place of the network once per URL, so the first render needs no API round trip; what the
 * first paint does not need (domain actions, the auth controller of a guest, the experiment
 * client) loads on first use or after the first screen has rendered.
 */
import { builtInActions } from '../../actions/catalogue'
import { actionRegistry, registerActions, runChain, type ActionEnvironment } from '../../actions/registry'
import { lastExperiments } from '../../../kernel/experiments/last-groups'
import { pageCachedGateway } from '../page-cache'
import { buildContext, evaluateCondition, createDocumentClient, createEngineStores, createGateway, createI18n, DATA_NOT_FOUND, documentHeaders, report, splitLocale, withLocale } from '../../core'
import type { DocumentClient, EngineStores, Gateway, I18n } from '../../core'
import { BOOT_ELEMENT_ID, documentUrl, guessLocale, parseBootData, type BootEntry } from '../../../kernel/core/boot-data'
import { retryOnServerError } from '../../core/route-load'
import { isNetworkFailure, sawAnswer, setOffline, watchConnectivity } from '../../core/connectivity'
import type { SiteBootstrap } from '../../../kernel/core/contracts'
import { consentStore } from '../../core/consent'
import { browserSessionTabs, provideSessionServices, type SessionMessage, type SessionTabs } from '../../auth/session-tabs'
import { followPunterHint } from '../../auth/punter-hint'
import { followSettingsAcrossTabs } from '../../auth/settings'
import type { TranslationsResource } from '../../core/documents'
import type { ActionChain, FooterDocument } from '../../../kernel/documents/types'
import type { EngineRuntime } from '../runtime'
import { afterFirstScreen, nextTask, whenIdle } from './after-first-screen'
import { documentCookies } from './CookieConsent'
import { memoryStorage, seedPreviewSession } from './preview-session'
import { createServicesStub, onFirstInteractionOrLater, type ServicesStub } from '../../services/stub'
import { pageLocalStorage } from '../../core/web-storage'
import { loadOnce } from '../../core/load-once'
import { prefetchFirstScreen, type FirstScreenPrefetch } from './first-screen-prefetch'

export const PLATFORM = 'web'

export interface BrowserEngine {
  runtime: EngineRuntime
  bootstrap: SiteBootstrap
  locale: string
  /** Set by the router once it is mounted: client-side navigation to a full path. */
  setNavigate(navigate: (path: string, options?: { replace?: boolean }) => void): void
  /** Starts the documents version poll; returns stop. */
  watch(): () => void
  /** Checks the documents version now (on navigation). */
  checkVersion(): void
}

export type BootResult = { ok: true; engine: BrowserEngine } | { ok: false; status: number; code: string }

const storage = (() => {
  // an admin's preview keeps everything in the page (./preview-session)
  if (readPreviewToken()) return memoryStorage()
  return pageLocalStorage()
})()

/**
 * The built-in actions (nav, popup, notify, locale) are in the first load, registered when the
 * engine boots; the domain actions' list (engine/actions/index.ts, `domainActions`) arrives in a
 * lazy chunk on first use and is registered then (nothing registers by being imported): a chain that names
 * an action not registered yet waits for it, and the punter's first touch or key press starts
 * the download, so the tap it begins rarely waits.
 */
const importDomainActions = loadOnce(async () => registerActions((await import('../../actions')).domainActions, actionRegistry))
const loadDomainActions = () =>
  importDomainActions().catch((error: unknown) => {
    report({ kind: 'action-error', message: `domain actions failed to load: ${(error as Error).message}` })
  })

/** The actions the chain (its branches included) names that are not registered yet. */
function missingActions(chain: ActionChain | undefined, into = new Set<string>()): Set<string> {
  for (const step of chain ?? []) {
    if (!actionRegistry.has(step.do)) into.add(step.do)
    missingActions(step.onSuccess, into)
    for (const branch of Object.values(step.onError ?? {})) missingActions(branch, into)
  }
  return into
}

/**
 * Actions a screen runs on enter, before any touch, each in a small module of its own, so that
 * screen's first load does not fetch the whole domain-actions barrel (/join: its settings).
 */
const ACTIONS_ON_THEIR_OWN: Record<string, () => Promise<unknown>> = {
  'join.loadSettings': async () => registerActions((await import('../../actions/join-settings')).joinSettingsActions, actionRegistry),
}

/** Loads what the chain needs: the small modules when they cover it, else the barrel. */
function loadActionsFor(chain: ActionChain): Promise<unknown> | undefined {
  return loadActions([...missingActions(chain)])
}

function loadActions(missing: string[]): Promise<unknown> | undefined {
  if (missing.length === 0) return undefined
  if (missing.every((name) => name in ACTIONS_ON_THEIR_OWN)) return Promise.all(missing.map((name) => ACTIONS_ON_THEIR_OWN[name]())).catch(() => loadDomainActions())
  return loadDomainActions()
}

/**
 * Stored last-good copies are written once the page is idle, not in the middle of the first
 * render (each is a synchronous JSON.stringify + localStorage write), as many per idle period as
 * it has time for; a page hidden or closed writes what is left at once, the large copies (the
 * translations bundle) included, which the idle slices leave for then.
 */
function persistWhenIdle(): (write: (shouldYield?: () => boolean) => void) => void {
  let pending: ((shouldYield?: () => boolean) => void) | null = null
  let writer: ((shouldYield?: () => boolean) => void) | null = null
  const flush = (shouldYield?: () => boolean) => {
    const write = pending
    pending = null
    write?.(shouldYield)
  }
  const writeAll = () => {
    pending = null
    writer?.()
  }
  window.addEventListener('pagehide', writeAll)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') writeAll()
  })
  return (write) => {
    pending = writer = write
    // an idle period of its own, never more than ~8 ms of it (a deadline at its timeout has none)
    whenIdle((deadline) => {
      const started = performance.now()
      flush(deadline ? () => deadline.timeRemaining() < 4 || performance.now() - started > 8 : () => performance.now() - started > 8)
    })
  }
}

/** The page's boot data by URL; each entry answers once, as the network would have. */
function readBootEntries(): { entries: Map<string, BootEntry>; experiments?: Record<string, unknown> } {
  const element = typeof document === 'undefined' ? null : document.getElementById(BOOT_ELEMENT_ID)
  const data = parseBootData(element?.textContent)
  return { entries: new Map((data?.entries ?? []).map((entry) => [entry.url, entry])), experiments: data?.experiments }
}

/** The answer the page carries, as a Response whose json() is the body already parsed with the
 * boot data (was: JSON.stringify into a Response and parsed again — twice the ~110 KB per load). */
function bootResponse(entry: BootEntry): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
  if (entry.etag) headers.etag = entry.etag
  const response = new Response(null, { status: 200, headers })
  Object.defineProperties(response, {
    json: { value: async () => entry.body },
    text: { value: async () => JSON.stringify(entry.body) },
  })
  return response
}

/**
 * Session tabs for a guest page: the auth controller (lazy chunk) is created only when another
 * tab reports a change (a login there reaches this tab) or on first use; messages that arrive
 * before it subscribes are handed to it when it does.
 */
function deferredTabs(tabs: SessionTabs, onFirstMessage: () => void): SessionTabs {
  const early: SessionMessage[] = []
  let listeners = 0
  const stopEarly = tabs.subscribe((message) => {
    if (listeners > 0) return
    early.push(message)
    if (early.length === 1) onFirstMessage()
  })
  return {
    ...tabs,
    subscribe(listener) {
      listeners++
      const unsubscribe = tabs.subscribe(listener)
      // handed over after the subscriber has finished setting itself up
      const handOver = early.splice(0)
      if (handOver.length > 0) queueMicrotask(() => handOver.forEach((message) => listener(message)))
      if (listeners === 1) stopEarly()
      return unsubscribe
    },
  }
}

/** A failed document load as an HTTP status: the error page shown for it. */
function statusOfFailedLoad(code: string): number {
  return code === 'NOT_FOUND' ? 404 : code === 'NETWORK_ERROR' ? 503 : 500
}

/** What the boot steps share: the page's carried answers, its transport, the preview token, and the site and locale once known. */
interface BootPage {
  /** The page's boot data by URL; each entry answers once, as the network would have. */
  boot: Map<string, BootEntry>
  fetch: (input: string, init?: RequestInit) => Promise<Response>
  /** Admin side-by-side review: a `?preview=` token renders a draft version of the documents. */
  previewToken: string | null
  locale: string
  bootstrap: SiteBootstrap | null
  /** Told of every document that changed (set once the stores and i18n exist). */
  onDocumentChange: (kind: string, id: string) => void
}

/** The page's transport: the answer the page carries for a URL (once), else the network. */
function pageTransport(boot: Map<string, BootEntry>) {
  return (input: string, init?: RequestInit) => {
    const entry = boot.get(input)
    if (!entry) return window.fetch(input, init)
    boot.delete(input)
    return Promise.resolve(bootResponse(entry))
  }
}

/** The page before its site is known: its boot data, transport and document client. */
function openPage() {
  const { entries: boot, experiments: bootGroups } = readBootEntries()
  const fetch = pageTransport(boot)
  const previewToken = readPreviewToken()
  const page: BootPage = { boot, fetch, previewToken, locale: guessLocale(window.location.pathname) ?? '', bootstrap: null, onDocumentChange: () => {} }
  const documents = createDocumentClient({
    fetch,
    storage,
    locale: () => page.locale,
    headers: () => documentHeaders(PLATFORM, page.bootstrap),
    onChange: (kind, id) => page.onDocumentChange(kind, id),
    preview: () => previewToken,
    persist: persistWhenIdle(),
    carried: (url) => boot.has(url),
  })
  // a preview as a demo punter: that punter's read-only session, fetched beside the site document
  const previewPunter = previewToken && storage ? seedPreviewSession(storage, previewToken) : Promise.resolve(false)
  return { page, documents, bootGroups, previewPunter }
}

/** The documents version the React layer follows: bumped on every document change. */
function documentsVersionSignal() {
  let version = 0
  const listeners = new Set<() => void>()
  return {
    version: () => version,
    bump() {
      version++
      for (const listener of listeners) listener()
    },
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/**
 * Screen data through the gateway client (envelope, errors, timeout), without the punter's
 * credentials, as documents do. A 5xx is asked again, up to 3 more times (spec §9 router data
 * fetch retries); offline, a screen shows the last good answer of that source this page loaded
 * (the service worker keeps them across reloads), never "nothing here" (issue 31).
 */
function screenDataFetcher(dataGateway: Gateway): (url: string) => Promise<unknown> {
  const lastData = new Map<string, unknown>()
  return async (url) => {
    const answer = await retryOnServerError(() => dataGateway.call('GET', url), (a) => (a.ok ? undefined : a.httpStatus))
    if (answer.ok) {
      sawAnswer()
      lastData.set(url, answer.value ?? null)
      return answer.value ?? null
    }
    if (answer.httpStatus === 404) return DATA_NOT_FOUND
    if (isNetworkFailure(answer.code)) setOffline(true)
    report({ kind: 'document', message: `data ${url}: ${answer.code}` })
    return lastData.get(url) ?? null
  }
}

/**
 * One request: the server ships the fallback texts (site default, then English) for the keys this
 * locale lacks inside its bundle.
 */
async function loadI18n(documents: DocumentClient, bootstrap: SiteBootstrap, locale: string): Promise<I18n> {
  const i18n = createI18n({ locale, fallbackLocale: bootstrap.site.defaultLocale, currencyDisplay: bootstrap.site.currencyDisplay })
  const texts = await documents.loadTranslations(locale)
  if (texts.ok) i18n.setResources(locale, texts.value.document.resources, texts.value.document.fallbacks)
  i18n.setLocale(locale)
  document.documentElement.lang = locale
  return i18n
}

/**
 * The stores of the first render: the groups in it are those the server rendered this page with
 * (the page's boot data), else those this browser was last given (the experiment client answers
 * later); a setting changed in another tab shows here too.
 */
function createPageStores(bootstrap: SiteBootstrap, locale: string, bootGroups: Record<string, unknown> | undefined): EngineStores {
  const stores = createEngineStores({ storage, site: bootstrap, locale })
  const lastGroups = bootGroups ?? lastExperiments(storage)
  if (lastGroups) stores.experiments.getState().setValues(lastGroups)
  if (storage) followSettingsAcrossTabs(stores, storage)
  return stores
}

/**
 * The punter session (engine/auth/session, in the lazy domain chunk): shared with the other tabs,
 * told of every unauthorised answer, restored after a reload. A guest tab gets its controller when
 * another tab reports a change (deferredTabs), so a login there still reaches it, or on first use
 * (an action, an unauthorised answer).
 */
function connectSession(page: BootPage, bootstrap: SiteBootstrap, stores: EngineStores, asPunter: boolean, env: () => ActionEnvironment) {
  const { previewToken, locale } = page
  const controller = async () => (await import('../../actions/auth')).authController(env())
  const tabs = previewToken ? undefined : browserSessionTabs(storage) // a preview tells no other tab
  const guest = previewToken ? !asPunter : !tabs || tabs.read() === null
  // the server renders a guest's first screen only for a browser without a session (a preview's
  // session is the operator's page's, not this browser's)
  if (!previewToken) followPunterHint(stores)
  // restore: a stored session is brought back; otherwise the controller only follows the other tabs
  const start = (restore: boolean) =>
    void controller().then(
      (session) => (restore ? session.restore() : undefined),
      (error: unknown) => report({ kind: 'action-error', message: `session restore failed: ${(error as Error).message}` }),
    )
  provideSessionServices(stores, {
    tabs: tabs && guest ? deferredTabs(tabs, () => start(false)) : tabs,
    restoreLocale: (serverLocale) => followPunterLocale(serverLocale, locale, bootstrap),
    loginLocale: (serverLocale) => reloadInPunterLocale(serverLocale, bootstrap),
    takePendingAfterLogin,
  })
  return { controller, guest, start }
}

/** The browser's history as the navigation actions see it. */
function browserHistory(): ActionEnvironment['history'] {
  return {
    get length() {
      return window.history.length
    },
    // react-router keeps the index of the entry in history.state: > 0 means a step back exists
    canGoBack: () => Number((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0,
    back: () => window.history.back(),
    // the Navigation API knows whether a step forward exists (Chromium); without it none is assumed
    canGoForward: () => (window as unknown as { navigation?: { canGoForward?: boolean } }).navigation?.canGoForward === true,
    forward: () => window.history.forward(),
  }
}

/**
 * What loads after the first screen, never before its first paint: the experiment client (flags
 * and experiment groups join the document context once it answers), the domain actions on the
 * first touch or key press (so the tap it begins rarely waits; a page only looked at never pays
 * for them), and the third-party services (analytics, error reports, fingerprint: issue 18) on
 * the first interaction or an idle period 5 s after the page settled (loaded, first screen
 * rendered): not in the first load's script (issue 10). The stub hands over what came before.
 */
function scheduleLaterChunks(env: ActionEnvironment, servicesStub: ServicesStub, version: string): void {
  const { stores } = env
  afterFirstScreen(() => {
    void import('../../experiments/engine-binding').then(({ connectExperiments }) =>
      connectExperiments(stores, { storage: storage ?? undefined, onError: (message) => report({ kind: 'action-error', message: `experiments: ${message}` }) }),
    )
  })
  for (const intent of ['pointerdown', 'keydown'] as const) window.addEventListener(intent, () => void loadDomainActions(), { once: true, capture: true, passive: true })
  const settled = (then: () => void) => afterFirstScreen(() => (document.readyState === 'complete' ? then() : window.addEventListener('load', then, { once: true })))
  onFirstInteractionOrLater(
    { target: window, settled, setTimeout: (task, ms) => window.setTimeout(task, ms), idle: (task) => whenIdle(() => task()) },
    () =>
      afterFirstScreen(() => {
        void import('../../services/browser').then(({ startServices }) => startServices(env, version, consentStore(stores), servicesStub.handOver()))
      }),
  )
}

/** A changed site document or translations bundle reaches the stores and i18n; the React layer is told. */
function followDocumentChanges(documents: DocumentClient, stores: EngineStores, i18n: I18n, bump: () => void) {
  return (kind: string, id: string) => {
    if (kind === 'site' && id === 'current') {
      const next = documents.peek<SiteBootstrap>('site', 'current')
      if (next) stores.site.getState().setBootstrap(next.document)
    }
    if (kind === 'translations') {
      const next = documents.peek<TranslationsResource>('translations', id)
      if (next) i18n.setResources(id, next.document.resources, next.document.fallbacks)
    }
    bump()
  }
}

interface RuntimeParts {
  boot: BootPage['boot']
  previewToken: string | null
  locale: string
  bootstrap: SiteBootstrap
  env: ActionEnvironment
  first: FirstScreenPrefetch
  fetchData: (url: string) => Promise<unknown>
  versions: ReturnType<typeof documentsVersionSignal>
}

/** The runtime the React layer touches: actions, documents, data, texts and links. */
function createBrowserRuntime({ boot, previewToken, locale, bootstrap, env, first, fetchData, versions }: RuntimeParts): EngineRuntime {
  const { stores, documents, i18n } = env
  const { prefetched, firstData, takePrefetched } = first
  return {
    stores,
    development: bootstrap.site.development,
    async run(chain, extra) {
      if (!chain || chain.length === 0) return { ok: true, value: undefined }
      // a form's chain (FormNode passes { form }) evaluates its bindings over the form values
      const form = extra?.form
      const context = () => buildContext(stores, { item: extra?.item, ...(form ? { form } : {}), ...(extra?.params ? { data: { params: extra.params } } : {}) })
      // what the steps due now need, branches included, in one wait; a step skipped now (its
      // `when` false) downloads nothing, and one that comes due later loads then (env.loadAction)
      const now = context()
      await loadActionsFor((chain as ActionChain).filter((step) => evaluateCondition(step.when, now)))
      // the chain's result goes back to the caller: a form shows a failed submit's errors
      return runChain(chain as ActionChain, env, context, actionRegistry)
    },
    async load<T>(kind: string, id: string) {
      const key = `${kind}/${id}`
      let pending = takePrefetched(key)
      if (!pending) {
        // a document the page carries answers its next load too (a form's placeholder and the
        // form share one answer instead of the second asking the network)
        const carried = !previewToken && boot.has(documentUrl(kind, id, locale))
        pending = documents.load<T>(kind, id)
        if (carried) prefetched.set(key, pending)
      }
      const result = (await pending) as Awaited<ReturnType<typeof documents.load<T>>>
      if (result.ok) return { ok: true as const, value: result.value.document }
      return { ok: false as const, code: result.code, status: statusOfFailedLoad(result.code) }
    },
    peek: <T,>(kind: string, id: string) => documents.peek<T>(kind, id)?.document,
    fetchData: (url) => takePrefetched(`data:${url}`) ?? fetchData(url),
    // the first screen's carried data, for its first render only (later loads fetch)
    peekData: (url) => {
      const data = firstData.get(url)
      return data && prefetched.has(`data:${url}`) ? { value: data.value } : undefined
    },
    t: (key, options) => i18n.t(key, options),
    href: (path) => {
      const current = stores.site.getState().bootstrap ?? bootstrap
      return withLocale(path, locale, current.site, window.location.pathname)
    },
    subscribeDocuments: versions.subscribe,
    documentsVersion: versions.version,
  }
}

export async function bootBrowserEngine(): Promise<BootResult> {
  registerActions(builtInActions, actionRegistry)
  // what the services chunk would have seen (screens, uncaught errors) is kept until it loads
  const servicesStub = createServicesStub(window)
  // each step of the boot in a task of its own, not all in the entry module's (issue 10: TBT)
  await nextTask()
  const { page, documents, bootGroups, previewPunter } = openPage()
  const { boot, fetch: transport, previewToken } = page
  const versions = documentsVersionSignal()

  await nextTask()
  const site = await documents.loadSite()
  if (!site.ok) return { ok: false, status: statusOfFailedLoad(site.code), code: site.code }
  const bootstrap = (page.bootstrap = site.value.document)
  const locale = (page.locale = splitLocale(window.location.pathname, bootstrap.site.locales).locale ?? bootstrap.site.defaultLocale)

  // repeated dictionary reads answer from the page cache (engine/core/cached-gateway.ts)
  const cacheScope = () => `${bootstrap.site.id ?? ''}|${locale}|${previewToken ?? ''}`
  const dataGateway = pageCachedGateway(createGateway({ fetch: transport, platform: PLATFORM, site: () => ({ bootstrap, locale }), preview: () => previewToken }), cacheScope)
  watchConnectivity()
  const fetchData = screenDataFetcher(dataGateway)
  const first = prefetchFirstScreen({ boot, documents, bootstrap, locale, fetchData })
  const i18n = await loadI18n(documents, bootstrap, locale)

  const asPunter = await previewPunter
  await nextTask()
  const stores = createPageStores(bootstrap, locale, bootGroups)
  const session = connectSession(page, bootstrap, stores, asPunter, () => env)
  const gateway = pageCachedGateway(
    createGateway({
      fetch: transport,
      stores,
      platform: PLATFORM,
      onUnauthorized: (code, sent, path) => session.controller().then((controller) => controller.handleUnauthorized(code, sent, path)),
      preview: () => previewToken,
    }),
    cacheScope,
    stores,
  )
  let navigate: (path: string, options?: { replace?: boolean }) => void = (path) => window.location.assign(path)
  const env: ActionEnvironment = {
    stores,
    gateway,
    documents,
    i18n,
    navigate: (path, options) => navigate(path, options),
    history: browserHistory(),
    reload: (url) => window.location.assign(url),
    now: () => Date.now(),
    platform: PLATFORM,
    currentPathname: () => window.location.pathname,
    loadAction: (name) => loadActions([name]) ?? Promise.resolve(),
  }
  scheduleLaterChunks(env, servicesStub, bootstrap.version ?? 'unknown')
  // every page load: a stored session is restored (status 'restoring' until its heartbeat is in)
  if (!session.guest) session.start(true)
  page.onDocumentChange = followDocumentChanges(documents, stores, i18n, versions.bump)

  await Promise.all(first.carriedFirst)
  for (const { name, value } of first.firstData.values()) stores.screenData.getState().setData(name, value)
  // the consent cookie read before the first render: a first visit's banner is in it, as in the
  // server's markup, instead of appearing (and becoming the largest paint) a moment later
  consentStore(stores).getState().load(documentCookies(), documents.peek<FooterDocument>('footer', 'footer')?.document.cookieConsent)
  await nextTask()
  const runtime = createBrowserRuntime({ boot, previewToken, locale, bootstrap, env, first, fetchData, versions })
  return {
    ok: true,
    engine: {
      runtime,
      bootstrap,
      locale,
      setNavigate(next) {
        navigate = next
      },
      watch: () => documents.watchVersion(),
      checkVersion: () => void documents.checkVersion(),
    },
  }
}

/**
 * Restoring the punter's language after a reload (spec §4 "restore locale"; §2: a locale change
 * reloads the page with the code in the path). Decision: a URL that names a language keeps it (the
 * punter chose it, or followed a link); a bare URL follows the punter's server-side locale when the
 * site offers it, by reloading on the prefixed path. True when the page reloads.
 */
function followPunterLocale(serverLocale: string, pageLocale: string, bootstrap: SiteBootstrap): boolean {
  const { locales } = bootstrap.site
  if (serverLocale === pageLocale || !locales.includes(serverLocale)) return false
  const { locale: named, path } = splitLocale(window.location.pathname, locales)
  if (named !== null) return false
  window.location.replace(`/${serverLocale}${path === '/' ? '' : path}${window.location.search}${window.location.hash}`)
  return true
}

/** This tab's note that a login reloaded the page before its after-login rules ran. */
const PENDING_AFTER_LOGIN = 'parlay.afterLoginPending'

/**
 * A login whose punter saved another language does what the language page does (spec §2: a
 * locale change reloads the page with the code in the path): the same path under the saved
 * locale. The after-login rules run after the reload (the session is restored there), so a popup
 * they open is not lost with the old page. Always true: the page reloads.
 */
function reloadInPunterLocale(serverLocale: string, bootstrap: SiteBootstrap): boolean {
  const { path } = splitLocale(window.location.pathname, bootstrap.site.locales)
  try {
    sessionStorage.setItem(PENDING_AFTER_LOGIN, '1')
  } catch {
    // no session storage (private mode): the rules run at the next login instead
  }
  window.location.assign(`/${serverLocale}${path === '/' ? '' : path}${window.location.search}${window.location.hash}`)
  return true
}

function takePendingAfterLogin(): boolean {
  try {
    const pending = sessionStorage.getItem(PENDING_AFTER_LOGIN) !== null
    sessionStorage.removeItem(PENDING_AFTER_LOGIN)
    return pending
  } catch {
    return false
  }
}

/** The admin preview token from the URL; read once, so in-app navigation keeps it and a fresh
 * tab without it is an ordinary punter page. */
function readPreviewToken(): string | null {
  const token = new URLSearchParams(window.location.search).get('preview')
  return token && /^[A-Za-z0-9_-]{16,64}$/.test(token) ? token : null
}
