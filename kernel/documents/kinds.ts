/**
 * The JSON Schema of every document kind: the single source of truth.
 *
 * `npm run schemas:emit` writes them to `schemas/kinds/*.schema.json` (what an operator's editor
 * reads through each document's "$schema"); the server validates with them; the TypeScript types
 * in `./types.ts` are derived from them with json-schema-to-ts. Never write those types by hand.
 *
 * Recursive parts (a node's children, an action's error branches) are `$ref`s here; the derived
 * types close the recursion in `./types.ts`.
 */

import { POPUP_ANIMATION_NAMES } from '../core/action-choices'
import { MENU_ITEM_NAMES, FOOTER_ITEM_NAMES, HEADER_ITEM_NAMES, PROFILE_LINK_NAMES, SERVER_SETTING_KEYS, LOCAL_SETTING_KEYS } from './names'

/**
 * Marks a property the server enforces but never sends to a browser (promo codes, abuse
 * thresholds): every served copy of a document drops it (tools/schema-lint/documents/server-only.ts), and
 * `schema-lint server-only` lists the marked fields. Validators ignore the keyword (strict off).
 */
export const SERVER_ONLY = 'x-server-only'

export { MENU_ITEM_NAMES, FOOTER_ITEM_NAMES, HEADER_ITEM_NAMES, PROFILE_LINK_NAMES, SERVER_SETTING_KEYS, LOCAL_SETTING_KEYS }

/** Avatars of the profile button; the first whose condition holds is shown. */
export const AVATAR_NAMES = ['vip', 'default'] as const
/** App icons (favicon, home-screen icon); the first whose condition holds is used. */
export const APP_ICON_NAMES = ['vip', 'default'] as const

export const MODAL_KINDS = ['default', 'info', 'select', 'date', 'calendar', 'confirm', 'result', 'login', 'custom'] as const
export const POPUP_ANIMATIONS = POPUP_ANIMATION_NAMES
export const SECTIONS = [
  'sport',
  'esports',
  'casino',
  'live-casino',
  'live-games',
  'virtual-sports',
  'toto',
  'scores',
  'mgames',
  'crash',
  'fast-games',
  'account',
  'promotions',
  'info',
] as const
export const THEMES = ['light', 'dark', 'lgames', 'vsports', 'esports'] as const
export const JURISDICTIONS = ['curacao', 'russia', 'belarus', 'denmark', 'spain', 'italy', 'alderney', 'nigeria'] as const
/** Named sign-up checks a jurisdiction's `signup.checks` may ask the server for (server/signup/rules.ts). */
export const SIGNUP_CHECKS = ['spanishDocument', 'italianFiscalCode', 'italianCommune'] as const
export const PLATFORMS = ['web', 'ios', 'android', 'scores-android', 'scores-ios'] as const

/** Node kinds the renderer registry knows. Unknown kinds pass the schema (documents may be newer
 * than a cached client) but lint warns, and the client skips them. */
export const NODE_KINDS = [
  'stack',
  'section',
  'text',
  'button',
  'link',
  'image',
  'list',
  'menu',
  'banner',
  'card',
  'money',
  'form',
  'setting',
  'odds',
  'market',
  'scoreboard',
  'betslip',
  'game',
  'lobby',
] as const

/** The filters a casino lobby may offer (issue 31). */
export const LOBBY_FILTERS = ['category', 'provider', 'new', 'favourites'] as const

export const SETTING_KEYS = [...SERVER_SETTING_KEYS, ...LOCAL_SETTING_KEYS] as const
/** How a setting is shown: a switch, a choice list, a number field, a money field (in the account's
 * currency, typed in the page's locale), or a read-only value. */
export const SETTING_CONTROLS = ['switch', 'select', 'number', 'money', 'value'] as const
/** How the entries of a dictionary call are labelled in a choice list. */
export const SETTING_SOURCE_LABELS = ['name', 'i18n', 'timeZone', 'minutes', 'currency'] as const

/** A recursive slot: a `$ref` at run time; an opaque object for json-schema-to-ts (which cannot
 * follow recursion), closed again in `./types.ts`. */
const recursive = <Name extends 'node' | 'chain'>(name: Name) =>
  ({ $ref: `#/$defs/${name}` }) as unknown as { readonly type: Name extends 'chain' ? 'array' : 'object'; readonly items?: { readonly type: 'object' } }

const id = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 80 } as const
const i18nKey = { type: 'string', pattern: '^[A-Za-z0-9_.-]+$', maxLength: 200 } as const
const expression = {
  type: 'string',
  minLength: 1,
  maxLength: 2000,
  description: 'A CEL expression over the declared context (site, session, user, settings, remoteConfig, flags, experiments, route, data, form, item, now).',
} as const
const binding = {
  type: 'object',
  required: ['$'],
  properties: { $: expression },
  additionalProperties: false,
  description: 'A value computed from the context: {"$": "user.firstName"}.',
} as const
const scalar = { type: ['string', 'number', 'boolean'] } as const

const text = {
  description: 'An i18n key, or a key with interpolation values and a plural count.',
  anyOf: [
    i18nKey,
    {
      type: 'object',
      required: ['key'],
      properties: {
        key: i18nKey,
        values: { type: 'object', additionalProperties: { anyOf: [binding, scalar] } },
        count: { anyOf: [binding, { type: 'number' }] },
      },
      additionalProperties: false,
    },
  ],
} as const

const path = { type: 'string', pattern: '^/[^\\s]*$', maxLength: 300 } as const

const action = {
  type: 'object',
  required: ['do'],
  properties: {
    do: { type: 'string', pattern: '^[a-z][a-zA-Z]*(\\.[a-z][a-zA-Z]*)*$', description: 'An action name from the registry, e.g. nav.go.' },
    with: { type: 'object', description: 'Parameters; any value may be a binding {"$": "..."}.' },
    when: expression,
    onSuccess: recursive('chain'),
    onError: {
      type: 'object',
      description: 'Branches by error code; "*" catches every other code.',
      propertyNames: { pattern: '^(\\*|[A-Za-z0-9_.-]+)$' },
      additionalProperties: recursive('chain'),
    },
  },
  additionalProperties: false,
} as const

const chain = { type: 'array', items: action, maxItems: 50 } as const

const nodeCommon = {
  type: { type: 'string', pattern: '^[a-z][a-zA-Z-]*$' },
  id: { type: 'string', maxLength: 80 },
  when: expression,
  testId: { type: 'string', maxLength: 80 },
} as const

const children = { type: 'array', items: recursive('node'), maxItems: 200 } as const

/** Per-kind properties, applied when `type` names a known kind. */
export const nodeKindProperties = {
  stack: {
    required: ['children'],
    properties: { direction: { enum: ['row', 'column'] }, gap: { enum: ['none', 'small', 'medium', 'large'] }, children },
  },
  section: {
    required: ['children'],
    properties: { title: text, children },
  },
  text: {
    required: ['text'],
    properties: { text: { anyOf: [text, binding], description: 'An i18n key, or a binding to a text the server already translated (a quiz question).' }, variant: { enum: ['title', 'subtitle', 'body', 'caption'] } },
  },
  button: {
    required: ['label', 'actions'],
    properties: { label: { anyOf: [text, binding] }, actions: chain, variant: { enum: ['primary', 'secondary', 'ghost'] }, enabled: expression },
  },
  link: {
    required: ['label', 'to'],
    properties: { label: text, to: { anyOf: [path, { type: 'string', pattern: '^https://' }, binding] } },
  },
  image: {
    required: ['src', 'alt'],
    properties: { src: { type: 'string', maxLength: 500 }, alt: text, width: { type: 'integer' }, height: { type: 'integer' } },
  },
  list: {
    properties: {
      items: children,
      source: binding,
      template: recursive('node'),
      empty: text,
      layout: { enum: ['list', 'grid', 'carousel'] },
    },
  },
  menu: { required: ['menu'], properties: { menu: id } },
  banner: {
    required: ['title'],
    properties: { title: text, body: text, image: { type: 'string' }, tone: { enum: ['promo', 'info', 'warning'] }, actions: chain },
  },
  card: {
    required: ['title'],
    properties: {
      title: { anyOf: [text, binding] },
      subtitle: { anyOf: [text, binding] },
      image: { anyOf: [{ type: 'string' }, binding] },
      to: { anyOf: [path, binding] },
      badge: text,
    },
  },
  money: {
    required: ['amount'],
    properties: { amount: { anyOf: [binding, { type: 'number' }] }, currency: { anyOf: [binding, { type: 'string' }] }, label: text },
  },
  form: {
    required: ['flow'],
    properties: {
      flow: id,
      headed: {
        type: 'boolean',
        default: true,
        description: "false where the page or popup already shows the flow's title (the login popup and page): the form then shows no title of its own, only its steps' titles.",
      },
    },
  },
  setting: {
    required: ['key', 'control', 'label'],
    properties: {
      key: { enum: SETTING_KEYS },
      control: { enum: SETTING_CONTROLS },
      label: text,
      hint: text,
      enabled: expression,
      options: {
        type: 'array',
        maxItems: 30,
        description: 'Fixed choices of a select.',
        items: { type: 'object', required: ['value', 'label'], properties: { value: scalar, label: text }, additionalProperties: false },
      },
      source: {
        type: 'object',
        description: 'Choices of a select from a dictionary call; entries keep their `id` as the value.',
        required: ['url'],
        properties: {
          url: { type: 'string', pattern: '^/mobile-gate/api/v1/dictionary/[a-z0-9/-]+$' },
          show: { enum: SETTING_SOURCE_LABELS, description: 'How an entry reads: name (its name), i18n (the text `<prefix>.<id>`), timeZone, minutes, currency (formatted).' },
          prefix: i18nKey,
        },
        additionalProperties: false,
      },
      min: { type: 'number' },
      max: { type: 'number' },
      step: { type: 'number', exclusiveMinimum: 0 },
      onChange: { ...chain, description: 'Runs after the new value is saved.' },
    },
  },
  odds: {
    required: ['price'],
    properties: {
      price: { anyOf: [binding, { type: 'number', exclusiveMinimum: 1 }], description: 'A decimal price, shown in the punter\'s odds type.' },
      label: text,
      combined: { anyOf: [binding, { type: 'boolean' }], description: "An accumulator's combined price: in fractions it prints exactly (73/50), not as the nearest ladder price." },
    },
  },
  market: {
    required: ['selections', 'event'],
    properties: {
      selections: binding,
      event: binding,
      displayMode: { enum: ['FULL', 'SHORT'], description: 'FULL: an event page (every market); SHORT: a line (the main market).' },
      actions: chain,
    },
  },
  scoreboard: {
    required: ['event'],
    properties: {
      event: { ...binding, description: "The event (an event page's data.event): teams, score, state and playing time; kept live over the socket." },
    },
  },
  betslip: {
    properties: {
      stakes: { type: 'array', maxItems: 6, items: { type: 'number', exclusiveMinimum: 0 }, description: 'Stake shortcuts in the punter\'s currency.' },
    },
  },
  lobby: {
    required: ['games', 'gamePath'],
    properties: {
      games: { ...binding, description: 'The lobby\'s games (id, title, provider, category, isNew, image, width, height), e.g. data.games from /api/content/games.' },
      gamePath: { ...path, description: "Where a tile leads: this path with the game's id appended, e.g. /casino/game?product=casino&id=" },
      favourites: { ...binding, description: "The punter's favourite games (ids, or the favourites answer's cards), for the Favourites filter (shown to logged-in punters only)." },
      filters: { type: 'array', uniqueItems: true, items: { enum: LOBBY_FILTERS }, description: 'The filters offered beside the search (default: all of them).' },
    },
  },
  game: {
    required: ['product', 'gameId'],
    properties: {
      product: { anyOf: [binding, { type: 'string' }], description: 'The lobby product (casino, crash …).' },
      gameId: { anyOf: [binding, { type: 'string' }], description: 'The game of the product (from the lobby card).' },
      stakes: { type: 'array', maxItems: 6, items: { type: 'number', exclusiveMinimum: 0 }, description: 'Stake choices in the punter\'s currency; any outside the jurisdiction\'s games.stake are dropped. Left out: four from the bounds (engine/core/game-stakes.ts).' },
      demo: { anyOf: [binding, { type: 'boolean' }], description: "Whether a guest may play it for fun (the game card's `demo`: the site allows demo play); a guest sees why not when false. Left out: no demo play is offered." },
    },
  },
} as const

const node = {
  type: 'object',
  required: ['type'],
  properties: nodeCommon,
  allOf: Object.entries(nodeKindProperties).map(([kind, spec]) => ({
    if: { properties: { type: { const: kind } } },
    then: spec,
  })),
} as const

const definitions = { node, chain } as const

/** Per-period amounts of a limit rule (major units of the punter's currency). */
const limitAmounts = {
  type: 'object',
  properties: { daily: { type: 'number', minimum: 0 }, weekly: { type: 'number', minimum: 0 }, monthly: { type: 'number', minimum: 0 } },
  additionalProperties: false,
} as const

const documentBase = (kind: string) =>
  ({
    $schema: { type: 'string' },
    kind: { const: kind },
    id,
    description: { type: 'string', maxLength: 500 },
    locales: { type: 'array', items: { type: 'string', pattern: '^[a-z]{2,3}$' }, description: 'Serve this variant only for these locales.' },
    platforms: { type: 'array', items: { enum: PLATFORMS }, description: 'Serve this variant only for these platforms.' },
  }) as const

const schemaUri = (kind: string) => `https://parlay.example/schemas/kinds/${kind}.schema.json`

export const screenSchema = {
  $id: schemaUri('screen'),
  title: 'Parlay screen',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'route', 'body'],
  properties: {
    ...documentBase('screen'),
    route: { ...path, description: 'Route pattern without the locale prefix, e.g. /casino/lobby or /account/:page.' },
    section: { enum: SECTIONS },
    title: text,
    guard: {
      type: 'object',
      properties: {
        login: { type: 'boolean', description: 'Only logged-in punters; guests are sent to the login popup.' },
        when: expression,
        redirect: path,
      },
      additionalProperties: false,
    },
    data: {
      type: 'object',
      description: 'Data the screen loads on enter, exposed as data.<name>.',
      additionalProperties: {
        type: 'object',
        required: ['url'],
        properties: {
          url: { type: 'string', pattern: '^/api/' },
          notFound: { type: 'boolean', description: 'A 404 answer makes the page the 404 page (spec §8): an event link whose id names no event.' },
        },
        additionalProperties: false,
      },
    },
    onEnter: chain,
    body: children,
  },
  additionalProperties: false,
  $defs: definitions,
} as const

export const popupSchema = {
  $id: schemaUri('popup'),
  title: 'Parlay popup',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'modal', 'body'],
  properties: {
    ...documentBase('popup'),
    modal: { enum: MODAL_KINDS },
    animation: { enum: POPUP_ANIMATIONS },
    closeable: { type: 'boolean', default: true },
    frozen: { type: 'boolean', description: 'A frozen popup ignores overlay taps and Escape.' },
    title: text,
    body: children,
    buttons: {
      type: 'array',
      items: {
        type: 'object',
        required: ['label', 'actions'],
        properties: { label: text, actions: chain, variant: { enum: ['primary', 'secondary', 'ghost'] }, when: expression, testId: { type: 'string', maxLength: 80 } },
        additionalProperties: false,
      },
      maxItems: 4,
    },
    onClose: chain,
  },
  additionalProperties: false,
  $defs: definitions,
} as const

const menuItem = (names: readonly string[]) =>
  ({
    type: 'object',
    required: ['name', 'label'],
    properties: {
      name: { enum: names, description: 'The item name; an unknown name is an error (spec §2).' },
      label: text,
      icon: { type: 'string', pattern: '^[a-z0-9-]+$' },
      to: { anyOf: [path, { type: 'string', pattern: '^https://' }] },
      actions: chain,
      when: expression,
      loginOnly: { type: 'boolean' },
    },
    additionalProperties: false,
  }) as const

export const menuSchema = {
  $id: schemaUri('menu'),
  title: 'Parlay menu',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'items'],
  properties: { ...documentBase('menu'), title: text, items: { type: 'array', items: menuItem(MENU_ITEM_NAMES), maxItems: 40 } },
  additionalProperties: false,
  $defs: definitions,
} as const

/** Spec §3 page settings: the cookie-consent cookie's name (default ConsentCookie) and expiry
 * (default 182 days), and where the cookies policy is. */
const cookieConsent = {
  type: 'object',
  properties: {
    cookieName: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'ConsentCookie' },
    expiryDays: { type: 'integer', minimum: 1, maximum: 400, default: 182 },
    policy: path,
  },
  additionalProperties: false,
} as const

export const footerSchema = {
  $id: schemaUri('footer'),
  title: 'Parlay footer',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'items'],
  properties: {
    ...documentBase('footer'),
    items: { type: 'array', items: menuItem(FOOTER_ITEM_NAMES), maxItems: 60 },
    notice: text,
    badges: {
      type: 'array',
      maxItems: 30,
      description: "The page settings' payment systems, social networks and compliance marks (spec §3), drawn under the links in three groups; a jurisdiction's overlay adds, replaces or deletes them by id.",
      items: {
        type: 'object',
        required: ['id', 'group', 'mark', 'label'],
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
          group: { enum: ['payment', 'compliance', 'social'] },
          mark: { anyOf: [{ type: 'string', minLength: 1, maxLength: 20 }, binding], description: 'What the badge shows ("VISA", "18+"); a binding for a value of the context, e.g. the minimum age.' },
          label: text,
          href: { type: 'string', pattern: '^https://[^\\s]+$', maxLength: 300, description: "The regulator's, the help line's or the network's page, opened in a new window." },
        },
        additionalProperties: false,
      },
    },
    cookieConsent,
  },
  additionalProperties: false,
  $defs: definitions,
} as const

const headerItem = {
  type: 'object',
  required: ['name', 'label'],
  properties: {
    name: { enum: HEADER_ITEM_NAMES },
    label: text,
    to: path,
    actions: chain,
    when: expression,
    variant: { enum: ['primary', 'secondary', 'ghost'] },
  },
  additionalProperties: false,
} as const

export const headerSchema = {
  $id: schemaUri('header'),
  title: 'Parlay header and profile panel',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'items', 'profile'],
  properties: {
    ...documentBase('header'),
    items: { type: 'array', items: headerItem, maxItems: 10, description: 'The account area, in order; each shows when its condition holds.' },
    profile: {
      type: 'object',
      required: ['title', 'links'],
      properties: {
        title: { anyOf: [text, binding], description: "The punter's name or nickname." },
        subtitle: { anyOf: [text, binding], description: 'The account number line.' },
        avatars: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'label'],
            properties: { name: { enum: AVATAR_NAMES }, label: text, when: expression },
            additionalProperties: false,
          },
          maxItems: 4,
        },
        links: { type: 'array', items: menuItem(PROFILE_LINK_NAMES), maxItems: 20 },
      },
      additionalProperties: false,
    },
    appIcons: {
      type: 'array',
      description: "The site's app icon by condition (spec §6: the VIP flag and showVipStatusAppIcon); the first whose condition holds is used.",
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { enum: APP_ICON_NAMES }, when: expression },
        additionalProperties: false,
      },
      maxItems: 4,
    },
  },
  additionalProperties: false,
  $defs: definitions,
} as const

export const flowSchema = {
  $id: schemaUri('flow'),
  title: 'Parlay flow (multi-step form)',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'steps'],
  properties: {
    ...documentBase('flow'),
    title: text,
    steps: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        required: ['id', 'schema'],
        properties: {
          id,
          title: text,
          when: expression,
          schema: { type: 'object', description: 'JSON Schema of the step, rendered by rjsf and enforced by the server.' },
          uiSchema: { type: 'object' },
          submitLabel: text,
          submit: chain,
        },
        additionalProperties: false,
      },
    },
    onComplete: chain,
    keepProgress: {
      type: 'boolean',
      description:
        "Keeps what the punter typed and the step reached across a reload, in the tab's sessionStorage for 30 minutes after the last change (issue 31; engine/core/flow-drafts.ts). Never a secret: a field with format password or writeOnly: true, or a password, code or file widget. Forgotten when the flow completes.",
    },
  },
  additionalProperties: false,
  $defs: definitions,
} as const

/** A stake range (major units of the punter's currency): below the minimum STAKE_TOO_LOW, above the maximum STAKE_TOO_HIGH. */
const stakeBounds = {
  type: 'object',
  required: ['minimum', 'maximum'],
  properties: { minimum: { type: 'number', exclusiveMinimum: 0 }, maximum: { type: 'number', exclusiveMinimum: 0, maximum: 1e12 } },
  additionalProperties: false,
} as const

export const jurisdictionSchema = {
  $id: schemaUri('jurisdiction'),
  title: 'Parlay jurisdiction',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'name', 'hosts', 'defaultLocale', 'locales', 'currency', 'minimumAge', 'betting', 'games'],
  properties: {
    ...documentBase('jurisdiction'),
    id: { enum: JURISDICTIONS },
    name: { type: 'string' },
    hosts: { type: 'array', items: { type: 'string', pattern: '^[a-z0-9.-]+$' }, minItems: 1, description: 'Host names that select this site.' },
    default: { type: 'boolean', description: 'The site for hosts no jurisdiction claims (plain localhost).' },
    defaultLocale: { type: 'string', pattern: '^[a-z]{2,3}$' },
    locales: { type: 'array', items: { type: 'string', pattern: '^[a-z]{2,3}$' }, minItems: 1 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    currencyDisplay: {
      type: 'object',
      propertyNames: { pattern: '^[A-Z]{3}$' },
      additionalProperties: { enum: ['symbol', 'narrowSymbol', 'code'] },
      description:
        "How amounts in a currency are written on this site, per ISO 4217 code (Intl's currencyDisplay): 'symbol' (the default: the locale's own sign, e.g. € or RUB), 'narrowSymbol' (the plain sign even where the locale writes the code: ₦ rather than NGN), 'code'. docs/money-rules.md.",
    },
    country: {
      type: 'string',
      pattern: '^[A-Z]{2}$',
      description: "ISO 3166 code of the site's country: a phone field's preset country, the country of a phone number typed without its dial code at login, and the experiment service's geo.",
    },
    countryName: { type: 'string', minLength: 1, maxLength: 80, description: "The country's English name, as the experiment service's geo names it (its conditions compare names)." },
    minimumAge: { type: 'integer', minimum: 18, maximum: 25 },
    mainProduct: { enum: SECTIONS },
    signup: {
      type: 'object',
      description: 'Sign-up methods and flow ids.',
      properties: {
        promoCodes: {
          type: 'array',
          [SERVER_ONLY]: true,
          description: 'Promo codes the server accepts at sign-up (code, bonus, countries). Server-only: never served to a browser.',
          items: { type: 'object', required: ['code'], properties: { code: { type: 'string', minLength: 1, maxLength: 40 } } },
        },
        checks: {
          type: 'array',
          items: { enum: SIGNUP_CHECKS },
          uniqueItems: true,
          description: 'Checks of the sign-up data beyond the flow schema, run by the server (server/signup/rules.ts SIGNUP_CHECK_RULES): a national document number, a tax code, a commune of the province.',
        },
        codeChannels: {
          type: 'array',
          items: { enum: ['SMS', 'TG_GATEWAY'] },
          uniqueItems: true,
          minItems: 1,
          description: "Channels a phone code may be sent by (spec 'Code channels'): SMS, TG_GATEWAY (Telegram's gateway). The request's channelType picks one; absent: SMS only.",
        },
        newPunterProfile: {
          type: 'object',
          description: 'Profile fields every punter signed up on this site starts with (e.g. a document upload required before playing).',
          properties: { needUploadDocuments: { type: 'boolean' }, documentsUploadState: { enum: ['REQUIRED'] } },
          additionalProperties: false,
        },
      },
    },
    identityRequirements: {
      type: 'array',
      maxItems: 10,
      description:
        "Identity the regulator requires of this site's punters at sign-up (Spain's DNI/NIE, Denmark's CPR and MitID, Italy's codice fiscale). The regulatory lint checks every sign-up flow and the sign-up settings keep each one (rule identity-requirements), and the publish gate refuses a change that drops or loosens one unless a waiver covers it.",
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id,
          name: { type: 'string', minLength: 1, maxLength: 60, description: 'What compliance calls it ("DNI/NIE").' },
          field: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$', description: 'A field every sign-up flow of the site requires.' },
          pattern: { type: 'string', maxLength: 200, description: "The field's pattern, exactly: a looser one is refused." },
          check: { enum: SIGNUP_CHECKS, description: 'A server check of the sign-up data that must stay in `signup.checks`.' },
          signupSetting: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9]*$', description: 'A `signup` setting that must stay true (Denmark: requireCpr).' },
          identityProvider: { type: 'string', pattern: '^[a-z0-9-]+$', description: '`signup.identityProvider` must stay this (Denmark: mitid).' },
          route: { type: 'string', pattern: '^/', description: 'A page the site must keep serving (the identity provider\'s return).' },
        },
        additionalProperties: false,
      },
    },
    afterSignUp: chain,
    afterRegistrationTokenLogin: { ...chain, description: 'Runs after a punter has logged in with the registration token of a confirmation link and gone to the root (spec §4).' },
    identification: {
      type: 'object',
      description: "Identification services of this site's punters.",
      properties: { nationalService: { type: 'boolean', description: 'The national identification service (spec §9, /punter/cps/one/*) serves this site; elsewhere its calls answer FORBIDDEN.' } },
      additionalProperties: false,
    },
    afterLogin: {
      type: 'array',
      description: 'Ordered after-login rules: the popups whose condition holds open in this order.',
      items: {
        type: 'object',
        required: ['id', 'when', 'popup'],
        properties: { id, when: expression, popup: id, with: { type: 'object' } },
        additionalProperties: false,
      },
    },
    nickname: { type: 'object' },
    countryCheck: { type: 'object' },
    dictionary: {
      type: 'object',
      description:
        "The site's choices of the dictionary calls (spec §3 Dictionary, §7 /dictionary/*): codes only, each named by its translation key (dictionary.title.<code>, dictionary.gender.<code>, dictionary.taxRegion.<code>, dictionary.documentType.<code>, dictionary.secretQuestion.<code>) in every locale.",
      properties: {
        titles: { type: 'array', items: { type: 'string', pattern: '^[A-Z]{2,10}$' }, uniqueItems: true, description: 'Forms of address the site offers.' },
        genders: { type: 'array', items: { type: 'string', pattern: '^[A-Z]{2,10}$' }, uniqueItems: true },
        taxRegions: { type: 'array', items: { type: 'string', pattern: '^[A-Z_]{2,30}$' }, uniqueItems: true, description: 'Tax regions of the site country (empty: the country has one).' },
        documentTypes: {
          type: 'array',
          items: { enum: ['ID_CARD', 'DRIVING_LICENSE', 'PASSPORT', 'AT_PERSONAL_ID_CARD', 'BT_PERSONAL_ID_CARD', 'FIREARMS_LICENSE'] },
          uniqueItems: true,
          description: 'Identity documents the site accepts (spec §3 identity document types).',
        },
        secretQuestions: {
          type: 'array',
          items: {
            enum: ['DigitalCode', 'FathersName', 'FavouriteArtist', 'FavouriteColour', 'FavouriteSportsPerson', 'FavouriteSportsTeam', 'FirstPetName', 'LastDriverLicenceNumberDigits', 'MemorableWord', 'MotherName', 'NameOfFirstTeacher', 'NearestSiblingBirthDate', 'SchoolName', 'WhereBorn'],
          },
          uniqueItems: true,
          description: 'Security question types the site offers (spec §3 security question types).',
        },
      },
      additionalProperties: false,
    },
    credentials: {
      type: 'object',
      description: 'Credential policy enforced by the server (spec §3 shared config: password change history).',
      properties: {
        passwordHistory: { type: 'integer', minimum: 0, maximum: 24, description: 'A new password may not be any of the last N (the current one included); 0 turns the check off.' },
      },
      additionalProperties: false,
    },
    betting: {
      type: 'object',
      description: "Money bounds of sports bets, in major units of the punter's currency, checked before a bet is accepted (docs/money-rules.md).",
      required: ['stake', 'maximumPayout', 'maximumDailyPayout'],
      properties: {
        stake: stakeBounds,
        maximumPayout: { type: 'number', exclusiveMinimum: 0, maximum: 1e12, description: 'The most one bet may pay (stake × price, the stake included); a bet whose potential win is higher is refused with PAYOUT_TOO_HIGH.' },
        maximumDailyPayout: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 1e12,
          description: "The most the potential wins of one punter's bets placed in any 24 hours may add up to (whatever became of them); a bet that would pass it is refused with DAILY_PAYOUT_LIMIT_EXCEED.",
        },
      },
      additionalProperties: false,
    },
    games: {
      type: 'object',
      description: "Money bounds of casino rounds, in major units of the punter's currency (docs/money-rules.md), and whether guests may play for fun.",
      required: ['stake', 'demoPlay'],
      properties: {
        stake: stakeBounds,
        demoPlay: { type: 'boolean', description: 'Guests may try lobby games with play money (never the ledger; refused with DEMO_PLAY_NOT_ALLOWED where false).' },
      },
      additionalProperties: false,
    },
    payments: {
      type: 'object',
      description: 'Deposit payment sources (spec §3 shared config), per currency, and the withdrawal rules.',
      properties: {
        sources: {
          type: 'array',
          maxItems: 30,
          items: {
            type: 'object',
            required: ['id', 'name', 'currencies', 'minimum', 'maximum', 'threeDSecure'],
            properties: {
              id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
              name: i18nKey,
              icon: { type: 'string', pattern: '^[a-z0-9-]+$' },
              currencies: { type: 'array', items: { type: 'string', pattern: '^[A-Z]{3}$' }, minItems: 1 },
              minimum: { type: 'number', minimum: 0 },
              maximum: { type: 'number', minimum: 0 },
              threeDSecure: { type: 'boolean', description: 'The provider asks the punter for 3-D Secure; the return comes through /threedsconfirm.' },
            },
            additionalProperties: false,
          },
        },
        withdrawal: {
          type: 'object',
          description:
            'Withdrawals (issue 28 item 5; docs/adr/0003-real-and-bonus-money.md): the payment sources that pay out, with their own minimum and maximum; when the identity must be verified first; how much of each deposit must be staked before it may be withdrawn.',
          required: ['sources'],
          properties: {
            sources: {
              type: 'array',
              maxItems: 30,
              description: 'Deposit sources (by id, for the same currencies) that also pay out; a source not listed takes deposits only.',
              items: {
                type: 'object',
                required: ['id', 'minimum', 'maximum'],
                properties: {
                  id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
                  minimum: { type: 'number', minimum: 0, description: 'Major units of the punter\'s currency.' },
                  maximum: { type: 'number', minimum: 0 },
                },
                additionalProperties: false,
              },
            },
            identityCheckAbove: { type: 'number', minimum: 0, description: 'A withdrawal of more than this (major units) needs a verified identity; 0: every withdrawal does; left out: none does.' },
            depositPlaythrough: { type: 'number', minimum: 0, maximum: 10, description: 'Each deposit must be staked this many times (real money) before it may be withdrawn (anti-money-laundering); 0 or left out: none.' },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    bonus: {
      type: 'object',
      description: 'Bonuses a logged-in punter can claim.',
      properties: {
        promoCodes: {
          type: 'array',
          [SERVER_ONLY]: true,
          description:
            'Promo codes a punter types on the bonuses page (POST /bonus/punter/promo-code/input) and their rewards: product, freeBets, bonusMoney (major units, onto the product\'s bonus account through the ledger), turnoverMultiplier (the bonus converts to real money once that many times its amount is staked), expiresAfterDays (its money is forfeited if not wagered by then). Server-only.',
          items: { type: 'object', required: ['code', 'reward'], properties: { code: { type: 'string', minLength: 1, maxLength: 40 }, reward: { type: 'object', required: ['product'] } } },
        },
      },
    },
    captcha: {
      type: 'object',
      description:
        "The captcha this site asks for after failed logins and past the free SMS (spec 'Captcha kinds'): POW (proof of work, the default), NONCE (a single-use server nonce echoed back: no work on the phone, only a fresh round trip; docs/adr/0087-nonce-challenge.md), RECAPTCHA or HCAPTCHA, with each vendor's public site key and (server-only) secret. Verify URLs are server configuration (server/auth/captcha-vendor.ts).",
      properties: {
        kind: { enum: ['POW', 'NONCE', 'RECAPTCHA', 'HCAPTCHA'] },
        keys: {
          type: 'object',
          properties: {
            RECAPTCHA: { type: 'object', required: ['siteKey'], properties: { siteKey: { type: 'string', minLength: 1, maxLength: 100 } }, additionalProperties: false },
            HCAPTCHA: { type: 'object', required: ['siteKey'], properties: { siteKey: { type: 'string', minLength: 1, maxLength: 100 } }, additionalProperties: false },
          },
          additionalProperties: false,
        },
        secrets: {
          type: 'object',
          [SERVER_ONLY]: true,
          description: "The vendors' secrets, never served to a browser (the demo carries the vendors' published test secrets).",
          properties: { RECAPTCHA: { type: 'string', minLength: 1, maxLength: 200 }, HCAPTCHA: { type: 'string', minLength: 1, maxLength: 200 } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    regulatory: {
      type: 'object',
      description: 'Regulatory numbers enforced by the server (limits, exclusion periods).',
      properties: {
        serverOnly: {
          type: 'object',
          [SERVER_ONLY]: true,
          description: 'Abuse thresholds the server enforces (SMS budgets); an attacker could pace himself by them, so never served.',
        },
        restrictions: {
          type: 'object',
          description:
            'Per restriction type (server/regulation/restrictions.ts RESTRICTION_PRIORITY), the operations it takes away: deposit, bet, game. A type left out takes all three away.',
          propertyNames: {
            enum: ['SELF_EXCLUSION_REGULATOR', 'SELF_EXCLUSION_PERMANENT', 'PROTECTION_MEASURE_PERMANENT', 'SELF_EXCLUSION_END_DATED', 'SELF_EXCLUSION_TIMEOUT', 'PROTECTION_MEASURE_END_DATED', 'SUSPENDED', 'BLOCKED_ID_UPLOAD', 'NEED_DOCUMENT'],
          },
          additionalProperties: { type: 'array', items: { enum: ['deposit', 'bet', 'game'] }, uniqueItems: true },
        },
        selfExclusion: {
          type: 'object',
          description: 'Self-exclusion offered: days, months, years (temporary periods), timeoutDays (or temporaryHours), permanent (or indefinite, final).',
          properties: {
            days: { type: 'array', items: { type: 'integer', minimum: 1 } },
            months: { type: 'array', items: { type: 'integer', minimum: 1 } },
            years: { type: 'array', items: { type: 'integer', minimum: 1 } },
            timeoutDays: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 365 } },
            permanent: { type: 'boolean' },
          },
        },
        realityCheck: {
          type: 'object',
          description: 'Reality check (casino and live casino): the reminder intervals a punter may choose, in minutes.',
          properties: { timeoutsMinutes: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 1440 }, minItems: 1 } },
        },
        lossLimits: {
          type: 'object',
          description:
            "Loss limits a punter may set beside the deposit limits (server/payments/loss-limits.ts; docs/money-rules.md \"Loss limits\"): net loss of real money in bets and casino rounds over a rolling period. Left out, or offered false: the site offers none. A lower limit applies at once; a higher one or a removal after increaseTakesEffectAfterHours (default: the deposit limits' waiting time).",
          properties: {
            offered: { type: 'boolean', description: 'false: the site offers no loss limits (as if the section were left out).' },
            periods: { type: 'array', items: { enum: ['daily', 'weekly', 'monthly'] }, uniqueItems: true, minItems: 1 },
            increaseTakesEffectAfterHours: { type: 'number', minimum: 0, maximum: 8760, description: 'Cooling-off before a raised or removed loss limit applies.' },
            defaults: { ...limitAmounts, description: 'Loss limits a new punter starts with (major units of the punter\'s currency).' },
            maximum: { ...limitAmounts, description: 'The highest loss limit a punter may set (major units); with none set, this applies.' },
          },
          additionalProperties: false,
        },
        sessionReminderIntervalMinutes: { type: 'integer', minimum: 1, maximum: 1440, description: 'Spain: minutes between session reminders while a session runs.' },
        gameReturn: {
          type: 'object',
          required: ['minimum', 'maximum', 'basis'],
          description:
            "The return to player a casino game must declare to be offered to this jurisdiction's punters (percent, inclusive); a game outside it is refused at launch (GAME_RETURN_NOT_ALLOWED). No range: no casino game is offered. docs/adr/0002-game-return-ranges.md",
          properties: {
            minimum: { type: 'number', minimum: 0, maximum: 100 },
            maximum: { type: 'number', minimum: 0, maximum: 100 },
            basis: { type: 'string', minLength: 1, maxLength: 300, description: 'Where the numbers come from: the published rule, or the recorded decision where none is published.' },
          },
          additionalProperties: false,
        },
      },
    },
    loyalty: {
      type: 'object',
      description: 'Loyalty on this site (spec §6: the loyalty campaign is loaded only for Curaçao and Russia).',
      properties: { campaign: { type: 'boolean', description: 'Browsers load the active loyalty campaign and its texts.' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
  $defs: definitions,
} as const

export const remoteConfigSchema = {
  $id: schemaUri('remote-config'),
  title: 'Parlay remote app config',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'config'],
  properties: {
    ...documentBase('remote-config'),
    id: { type: 'string', description: '"default", or a jurisdiction id whose site gets this config instead.' },
    config: {
      type: 'object',
      description: 'Every key here has a reader (docs/adr/0085-remote-config-keys.md lists each; a key nobody reads was removed, and an unknown key is refused).',
      required: ['STATE_MATRIX', 'APP_PRODUCTS_CONFIG', 'NULL_BALANCE_POPUP_TIMEOUT'],
      properties: {
        STATE_MATRIX: {
          type: 'object',
          required: ['PERSONALDETAILS'],
          properties: {
            PERSONALDETAILS: { type: 'array', items: { type: 'string' }, description: 'Account states that are asked for personal details (the nickname prompt rule).' },
          },
          additionalProperties: false,
        },
        APP_PRODUCTS_CONFIG: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: {
              ROUTE: path,
              IS_NEW: { type: 'boolean' },
            },
            additionalProperties: false,
          },
        },
        ACTIVE_PRODUCTS: {
          type: 'array',
          items: { type: 'string', pattern: '^[a-z][a-z-]*$' },
          uniqueItems: true,
          maxItems: 20,
          description: "The products the site offers, in the product switcher's order (spec §3 page settings: active products); each names an APP_PRODUCTS_CONFIG entry, whose ROUTE it opens.",
        },
        NULL_BALANCE_POPUP_TIMEOUT: { type: 'integer', minimum: 0 },
        OFFSET_TO_EXPIRE_TOKEN: { type: 'integer' },
        AMPLITUDE_KEY: { type: 'string' },
        AMPLITUDE_REPLAY: { type: 'boolean' },
        ERROR_REPORTING_ENABLED: { type: 'boolean', description: 'Client error reports to the error-reporting endpoint (issue 18); on unless false.' },
        INGEST: {
          type: 'object',
          [SERVER_ONLY]: true,
          description:
            "Bounds of the analytics, error, replay and tap ingest (issue 30; server/services/ingest-policy.ts has the defaults). Quotas per window: per client (address + device) and per site, in requests and body bytes; past one, 429 with Retry-After. The storage budget and the retention days are the default site's (the rows are one pool); a kind's rows older than its retention are deleted by a sweep. Server-only: an attacker could pace himself by them.",
          properties: {
            WINDOW_SECONDS: { type: 'integer', minimum: 1, maximum: 3600 },
            CLIENT_REQUESTS: { type: 'integer', minimum: 1 },
            CLIENT_BYTES: { type: 'integer', minimum: 1 },
            SITE_REQUESTS: { type: 'integer', minimum: 1 },
            SITE_BYTES: { type: 'integer', minimum: 1 },
            STORAGE_BUDGET_BYTES: { type: 'integer', minimum: 1_000_000, description: 'All stored ingest rows together; past it the oldest rows go first.' },
            CONTACT: {
              type: 'object',
              description: 'The contact form (issue 34): at most REQUESTS messages per client address in WINDOW_SECONDS, besides the quotas above; past it, 429 with Retry-After.',
              properties: {
                REQUESTS: { type: 'integer', minimum: 1 },
                WINDOW_SECONDS: { type: 'integer', minimum: 1, maximum: 86400 },
              },
              additionalProperties: false,
            },
            RETENTION_DAYS: {
              type: 'object',
              properties: {
                EVENTS: { type: 'integer', minimum: 1, maximum: 3650 },
                ERRORS: { type: 'integer', minimum: 1, maximum: 3650 },
                REPLAYS: { type: 'integer', minimum: 1, maximum: 3650 },
                CLICKS: { type: 'integer', minimum: 1, maximum: 3650 },
              },
              additionalProperties: false,
            },
          },
          additionalProperties: false,
        },
        AMPLITUDE_DISABLED_EVENTS: { type: 'array', items: { type: 'string' } },
        IS_SEPARATED_SOCKET_ENABLED: { type: 'boolean' },
        POW_PUZZLE_CONFIG: { type: 'object' },
        FINGERPRINT_CONFIG: { type: 'object' },
        SIGMA_TOKEN: { type: 'string' },
        DESKTOP_LINK: { type: 'string', pattern: '^https://[^\\s]+$', description: 'The desktop site (spec §3 shared config: desktop link).' },
        HELP_LINK: { anyOf: [path, { type: 'string', pattern: '^https://[^\\s]+$' }], description: 'The help pages (spec §3 shared config: help link).' },
        MIRROR_NAME: { type: 'string', pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$', description: 'The domain where the site works when its own is blocked (spec §3 mirror): a change is pushed to open pages as the socket event `mirror`.' },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const

export const translationsSchema = {
  $id: schemaUri('translations'),
  title: 'Parlay translations (one locale)',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'resources'],
  properties: {
    ...documentBase('translations'),
    locale: {
      type: 'string',
      pattern: '^[a-z]{2,3}$',
      description: 'The locale these texts are for; defaults to the id. Every document of a locale is merged, so each part of the product keeps its own file (en, en-auth, en-signup …).',
    },
    resources: {
      type: 'object',
      description: 'i18next resources: key → text; plurals as key_one, key_other …',
      additionalProperties: { type: 'string', maxLength: 2000 },
    },
  },
  additionalProperties: false,
} as const

/** Redirect rules (spec §2): the "(*)" catch-alls and old links (/casino, /changepassword, *.htm,
 * /affiliate-link) as data, so an operator changes where they lead without a release.
 * `kernel/core/routes.ts` resolves them; schema-lint refuses loops and dead targets. */
const redirectRule = {
  type: 'object',
  required: ['to'],
  properties: {
    from: { type: 'string', pattern: '^/[^\\s*?#]*$', maxLength: 300, description: 'The path the rule answers, without locale prefix (/casino).' },
    trailing: { type: 'boolean', description: 'Also any trailing path under `from` (the spec\'s "(*)"); a trailing path that starts with a screen\'s route lands on that screen.' },
    ending: { type: 'string', pattern: '^\\.[a-z0-9]{1,8}$', description: 'Instead of `from`: any path ending so (".htm").' },
    to: { anyOf: [path, { type: 'string', pattern: '^https://[^\\s]+$' }], description: 'Where the punter goes: a path of the site or an https link.' },
    toRemoteConfig: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$', description: 'A remote-config key holding the link (DESKTOP_LINK); `to` when it is missing.' },
    follow: {
      type: 'object',
      description: 'The punter goes to the trailing path (or the path without `ending`) or to a query parameter\'s path, when the site serves it; else to `to`.',
      properties: { trailing: { type: 'boolean' }, query: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' } },
      additionalProperties: false,
    },
    remember: {
      type: 'array',
      description: 'Stored keys (spec §9) filled from the link: a query parameter, or the first trailing segment.',
      items: {
        type: 'object',
        required: ['key'],
        properties: { key: { enum: ['refererId'] }, query: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' }, trailingSegment: { type: 'boolean' } },
        additionalProperties: false,
      },
      maxItems: 4,
    },
    keepQuery: { type: 'boolean', default: true, description: 'The query string (tokens, promo codes) travels to the target.' },
  },
  oneOf: [{ required: ['from'] }, { required: ['ending'] }],
  additionalProperties: false,
} as const

export const redirectsSchema = {
  $id: schemaUri('redirects'),
  title: 'Parlay redirects (catch-all and legacy paths)',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'redirects'],
  properties: {
    ...documentBase('redirects'),
    redirects: { type: 'array', items: redirectRule, maxItems: 200 },
  },
  additionalProperties: false,
} as const

/** Quiz statuses (spec §4). A PUBLISHED quiz whose end time has passed counts as IN_PLAY. */
export const QUIZ_STATUSES = ['PUBLISHED', 'IN_PLAY', 'DONE', 'PLAYED', 'CONFIRMATION_REQUIRED', 'COMPLETED', 'CANCELED', 'PAUSE'] as const
const instant = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?Z$', description: 'A UTC instant: 2026-12-01T18:00:00Z.' } as const

/** A quiz with prizes (spec §3 quizInfo, §4 statuses): an operator's document, reviewed before it goes live. */
export const quizSchema = {
  $id: schemaUri('quiz'),
  title: 'Parlay quiz',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'status', 'title', 'question', 'answers', 'correctAnswer', 'startTime', 'endTime', 'eventId', 'awards'],
  properties: {
    ...documentBase('quiz'),
    status: { enum: QUIZ_STATUSES, description: 'Set by the operator; PUBLISHED takes answers until endTime, then counts as IN_PLAY.' },
    title: i18nKey,
    question: i18nKey,
    answers: {
      type: 'array',
      minItems: 2,
      maxItems: 10,
      items: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' }, text: i18nKey }, additionalProperties: false },
    },
    correctAnswer: { type: 'string', pattern: '^[a-z0-9-]{1,40}$', [SERVER_ONLY]: true, description: 'The id of the right answer. Server-only: never served.' },
    startTime: instant,
    endTime: instant,
    eventId: { type: 'string', pattern: '^e[0-9]{1,12}$', description: 'The event the question is about; its tree id is the number in it (GET events/get-tree-ids).' },
    awards: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        required: ['id', 'prize', 'awardCurrencyCode'],
        properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' }, prize: { type: 'number', exclusiveMinimum: 0, maximum: 10_000_000 }, awardCurrencyCode: { type: 'string', pattern: '^[A-Z]{3}$' } },
        additionalProperties: false,
      },
    },
    personalDataPath: { ...path, description: 'The page that asks for the personal data a quiz needs (where the QUIZ_PERSONAL_DATA_REQUIRED denial leads).' },
  },
  additionalProperties: false,
} as const

/** A loyalty campaign (spec §3 loyalty active campaign): texts by key, looked up for the punter's locale. */
export const loyaltyCampaignSchema = {
  $id: schemaUri('loyalty-campaign'),
  title: 'Parlay loyalty campaign',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'landingUrl', 'mainPrizeKey', 'mainPrizeCardKey', 'commonTitleKey', 'startTime', 'endTime'],
  properties: {
    ...documentBase('loyalty-campaign'),
    landingUrl: path,
    mainPrizeKey: i18nKey,
    mainPrizeCardKey: i18nKey,
    commonTitleKey: i18nKey,
    startTime: instant,
    endTime: instant,
    prizes: {
      type: 'array',
      maxItems: 30,
      description: 'Loyalty prizes a punter exchanges points for.',
      items: {
        type: 'object',
        required: ['id', 'title', 'points'],
        properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' }, title: i18nKey, points: { type: 'integer', minimum: 1, maximum: 10_000_000 } },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const

/** Promotions (spec §2 {product}/promotions, §6 "guests may see promotions unless disabled for
 * guests"): one document per promotion, its texts inline per locale so compliance reviews the
 * whole offer (prize, dates, copy) as one readable diff. schema-lint checks the end is after the
 * start and that every locale of every site it targets has its texts. */
export const PROMOTION_PRODUCTS = ['sport', 'esports', 'casino', 'live-casino', 'live-games', 'virtual-sports', 'toto'] as const

const ISO_UTC = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?Z$'

const promotionText = {
  type: 'object',
  required: ['title', 'body'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 120 },
    body: { type: 'string', minLength: 1, maxLength: 1000 },
    terms: { type: 'string', maxLength: 2000, description: 'The key terms, shown on the promotion page.' },
  },
  additionalProperties: false,
} as const

export const promotionSchema = {
  $id: schemaUri('promotion'),
  title: 'Parlay promotion',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'product', 'startsAt', 'endsAt', 'texts'],
  properties: {
    ...documentBase('promotion'),
    product: { enum: PROMOTION_PRODUCTS, description: 'The product page that lists it ({product}/promotions); every one is also on /promotions.' },
    startsAt: { type: 'string', pattern: ISO_UTC, description: 'When it goes live (ISO 8601, UTC).' },
    endsAt: { type: 'string', pattern: ISO_UTC, description: 'When it ends (ISO 8601, UTC); must be after startsAt.' },
    shownToGuests: { type: 'boolean', default: true, description: 'false: only logged-in punters see it (spec §6).' },
    jurisdictions: { type: 'array', items: { enum: JURISDICTIONS }, minItems: 1, uniqueItems: true, description: 'The sites that show it; every site when absent.' },
    prize: {
      type: 'object',
      required: ['amount', 'currency'],
      properties: { amount: { type: 'number', exclusiveMinimum: 0, maximum: 10_000_000 }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
      additionalProperties: false,
    },
    participationCode: {
      type: 'string',
      pattern: '^[A-Z0-9-]{2,40}$',
      [SERVER_ONLY]: true,
      description: 'The code whose use counts as taking part (the jurisdiction\'s bonus.promoCodes says what it gives). Never served, like the codes themselves: the texts advertise it when the operator wants.',
    },
    forRegistration: { type: 'boolean', description: 'Offered to guests with the promo-for-registration popup: sign up to take part.' },
    texts: {
      type: 'object',
      description: 'locale → title, body and terms.',
      propertyNames: { pattern: '^[a-z]{2,3}$' },
      additionalProperties: promotionText,
      minProperties: 1,
    },
  },
  additionalProperties: false,
} as const

/** Reel symbols a slot may use (the game node draws each one). */
export const SLOT_SYMBOLS = ['cherry', 'lemon', 'plum', 'bell', 'star', 'seven'] as const
export const GAME_ENGINES = ['slot', 'crash'] as const

const slotReel = {
  type: 'object',
  description: "Symbol → its number of stops on this reel. The reel's strip lists the symbols in SLOT_SYMBOLS order, each repeated that many times; a spin stops on each stop with the same chance.",
  propertyNames: { enum: SLOT_SYMBOLS },
  additionalProperties: { type: 'integer', minimum: 1, maximum: 1000 },
  minProperties: 2,
} as const

const slotPay = {
  type: 'object',
  required: ['pays'],
  description: 'One winning combination on the pay line. A spin pays the highest of the combinations it shows (never two).',
  properties: {
    line: { type: 'array', minItems: 3, maxItems: 3, items: { enum: [...SLOT_SYMBOLS, 'any'] }, description: 'The symbol each reel must show, left to right; "any" for any symbol.' },
    symbol: { enum: SLOT_SYMBOLS, description: 'With count: at least count of this symbol anywhere on the line.' },
    count: { type: 'integer', minimum: 1, maximum: 3 },
    pays: { type: 'integer', minimum: 1, maximum: 100_000, description: 'The win as a multiple of the stake (the stake back included).' },
  },
  oneOf: [{ required: ['line'], not: { anyOf: [{ required: ['symbol'] }, { required: ['count'] }] } }, { required: ['symbol', 'count'], not: { required: ['line'] } }],
  additionalProperties: false,
} as const

/** A casino game's maths (issue 28 item 3): the paytable the server plays and the return it
 * declares. The loader refuses a document whose exact return (computed from the paytable by the
 * code the server plays, kernel/games) differs from `targetReturn` by more than 0.01 points. */
export const gameSchema = {
  $id: schemaUri('game'),
  title: 'Parlay casino game (maths)',
  type: 'object',
  required: ['$schema', 'kind', 'id', 'name', 'engine', 'targetReturn', 'lobby'],
  properties: {
    ...documentBase('game'),
    name: { type: 'string', minLength: 1, maxLength: 80, description: 'What reviewers call it (the lobby shows each lobby game\'s own title).' },
    engine: { enum: GAME_ENGINES },
    targetReturn: {
      type: 'number',
      minimum: 1,
      maximum: 200,
      description: 'The declared return to player, in percent with at most 2 decimals (96.5 = 96.50 %): shown to punters, checked against the exact return of the paytable and against each jurisdiction\'s range.',
    },
    volatility: { enum: ['low', 'medium', 'high'], description: 'How a punter should expect the wins to come: many small ones (low) or rare big ones (high).' },
    lobby: {
      type: 'array',
      maxItems: 200,
      uniqueItems: true,
      items: { type: 'string', pattern: '^[a-z-]{2,20}/[a-z0-9-]{1,60}$' },
      description: 'The lobby games (product/gameId) that play this game; a lobby game no game names cannot be launched.',
    },
    slot: {
      type: 'object',
      required: ['reels', 'pays'],
      description: 'Three reels and one pay line.',
      properties: { reels: { type: 'array', minItems: 3, maxItems: 3, items: slotReel }, pays: { type: 'array', minItems: 1, maxItems: 50, items: slotPay } },
      additionalProperties: false,
    },
    crash: {
      type: 'object',
      required: ['instantCrashOneIn', 'maxMultiplier'],
      description:
        'One round in instantCrashOneIn crashes at 1.00 (the house edge); otherwise the multiplier is 2^32 / (2^32 − k) for a uniform 32-bit k, floored to 2 decimals and capped at maxMultiplier. The punter cashes out automatically at a target of 1.01 to maxMultiplier (2 decimals).',
      properties: { instantCrashOneIn: { type: 'integer', minimum: 2, maximum: 10_000 }, maxMultiplier: { type: 'integer', minimum: 2, maximum: 1000, description: 'The cap on the crash point and the highest cash-out target.' } },
      additionalProperties: false,
    },
  },
  allOf: [
    { if: { properties: { engine: { const: 'slot' } } }, then: { required: ['slot'], not: { required: ['crash'] } } },
    { if: { properties: { engine: { const: 'crash' } } }, then: { required: ['crash'], not: { required: ['slot'] } } },
  ],
  additionalProperties: false,
} as const

export const documentSchemas = {
  screen: screenSchema,
  popup: popupSchema,
  menu: menuSchema,
  footer: footerSchema,
  header: headerSchema,
  flow: flowSchema,
  jurisdiction: jurisdictionSchema,
  'remote-config': remoteConfigSchema,
  translations: translationsSchema,
  redirects: redirectsSchema,
  quiz: quizSchema,
  'loyalty-campaign': loyaltyCampaignSchema,
  promotion: promotionSchema,
  game: gameSchema,
} as const

export type DocumentKind = keyof typeof documentSchemas
export const DOCUMENT_KINDS = Object.keys(documentSchemas) as DocumentKind[]
