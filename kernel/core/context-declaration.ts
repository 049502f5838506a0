/**
 * The typed context every document expression is checked against (CEL types).
 *
 * One declaration, three users: the server type-checks each expression when it loads a document,
 * schema-lint reports type errors with the document's JSON pointer, and the client projects its
 * stores into exactly this shape (see `engine/core/context.ts`) so an expression that checked on
 * the server finds every field it names in the browser.
 *
 * Keys typed `map<string, dyn>` are open on purpose: remote config, flags, experiments, screen
 * data and form values are operator-defined, so only their container is typed.
 */
export const contextDeclaration = {
  site: {
    id: 'string',
    jurisdiction: 'string',
    locale: 'string',
    defaultLocale: 'string',
    locales: 'list<string>',
    platform: 'string',
    currency: 'string',
    development: 'bool',
    loyaltyCampaign: 'bool',
    /** The jurisdiction document's minimum age to play (the footer's "18+", Belarus 21). */
    minimumAge: 'int',
  },
  session: {
    loggedIn: 'bool',
    /** 'restoring' (user data on its way after a reload or login), 'guest' or 'punter'. */
    status: 'string',
    expiresAt: 'double',
  },
  user: {
    id: 'string',
    accountNumber: 'string',
    firstName: 'string',
    nickname: 'string',
    state: 'string',
    balance: 'double',
    withdrawable: 'double',
    currency: 'string',
    countryCode: 'string',
    vip: 'bool',
    legalAgreementAccepted: 'bool',
    hasDeposited: 'bool',
    identified: 'bool',
    /** Unread inbox messages (heartbeat inboxStatistics, then the punter socket). */
    unreadMessages: 'int',
  },
  settings: {
    locale: 'string',
    oddsType: 'string',
    showCurrentBalance: 'bool',
    showVipStatusAvatar: 'bool',
    isAnimationsActive: 'bool',
    showVipStatusAppIcon: 'bool',
    timeZoneAutoDetect: 'bool',
    isQuickBetEnable: 'bool',
  },
  remoteConfig: 'map<string, dyn>',
  flags: 'map<string, dyn>',
  experiments: 'map<string, dyn>',
  route: {
    path: 'string',
    section: 'string',
    params: 'map<string, string>',
    query: 'map<string, string>',
  },
  data: 'map<string, dyn>',
  form: 'map<string, dyn>',
  item: 'dyn',
  now: 'double',
} as const

export type ContextDeclaration = typeof contextDeclaration
export type ContextVariable = keyof ContextDeclaration

type CelToTs<T> = T extends 'string'
  ? string
  : T extends 'bool'
    ? boolean
    : T extends 'double' | 'int'
      ? number
      : T extends 'list<string>'
        ? string[]
        : T extends 'map<string, string>'
          ? Record<string, string>
          : T extends 'map<string, dyn>'
            ? Record<string, unknown>
            : T extends 'dyn'
              ? unknown
              : T extends Record<string, unknown>
                ? { [K in keyof T]: CelToTs<T[K]> }
                : never

/** The TypeScript shape of the evaluation context, derived from the CEL declaration above. */
export type EvaluationContext = { [K in ContextVariable]: CelToTs<ContextDeclaration[K]> }
