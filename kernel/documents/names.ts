/**
 * The item and setting names the shell renderers check documents against, apart from the kind
 * schemas in ./kinds.ts (issue 10): kinds.ts builds its schemas with top-level calls the bundler
 * cannot drop, so importing a name list from it put every schema in the first-load entry chunk.
 * kinds.ts re-exports these, so the schemas stay the single source of truth.
 */
export const MENU_ITEM_NAMES = [
  // issue 31: the sport line's live and upcoming pages, and the account's money and
  // responsible-gambling pages (login only), reachable from the menu
  'live',
  'prematch',
  'myBets',
  'deposit',
  'withdrawal',
  'responsibleGambling',
  'results',
  'statistics',
  'downloadApp',
  'vipClub',
  'loyalty',
  'whatsNew',
  'quiz',
  'loyaltyPrizes',
  'promotions',
  'lobby',
  'favourites',
  'contactUs',
] as const

export const FOOTER_ITEM_NAMES = [
  'generalInformation',
  'settings',
  'support',
  'partners',
  'legalInformation',
  'help',
  'privacy',
  'rules',
  'games',
  'regulation',
  'responsibleGambling',
  'gamblingRules',
  'terms',
  'contract',
  'cookiesPolicy',
  'manageCookies',
  'about',
  'aboutApp',
  'payments',
  'desktopSite',
  'blog',
  'language',
  'companyDetails',
] as const

/** The header's account area (spec §2 issue 9): guest buttons, balance, deposit and the avatar. */
export const HEADER_ITEM_NAMES = ['login', 'signup', 'balance', 'deposit', 'profile', 'messages'] as const

/** Links of the profile panel the avatar opens. */
export const PROFILE_LINK_NAMES = [
  'settings',
  'deposit',
  'withdrawal',
  'loyalty',
  'offers',
  'language',
  'contactUs',
  'logout',
  'messages',
  // issue 31: My bets and the responsible-gambling tools in the panel
  'myBets',
  'depositLimits',
  'lossLimits',
  'realityCheck',
  'timeOut',
  'selfExclusion',
] as const

/** Account settings a `setting` node can show (spec §3 "Account settings keys"): the server-side
 * ones (saved with PUT /punter/settings) and the local-only ones (kept in this browser). */
export const SERVER_SETTING_KEYS = [
  'noEmailCorrespondence',
  'termsAgreement',
  'locale',
  'oddsType',
  'betPlacingMode',
  'priceChangeNotificationViewType',
  'standbyTimeoutMillis',
  'timeZoneId',
  'showCurrentBalance',
  'currencyId',
  'showVipStatusAppIcon',
  'showVipStatusAvatar',
] as const

export const LOCAL_SETTING_KEYS = [
  'winningAndLosingBets',
  'timeZoneAutoDetect',
  'isAnimationsActive',
  'cashOutAutoConfirmationType',
  'isCashOutDelayActive',
  'isQuickBetEnable',
  'quickBetAmount',
  'isCashOutConfirmationActive',
  'autoDetectedTimezone',
  'autoDetectedCurrency',
  'wasUserChangedSettingsManually',
] as const
