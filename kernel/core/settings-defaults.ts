/**
 * Server-side user settings' defaults (spec §3 "Account settings keys", §9 defaults: odds decimal,
 * standby 0, currency id -1; time zone 0 is UTC), one list for the server (what a punter without
 * saved settings gets) and the browser (what it shows before the heartbeat). Plain data: no stores.
 */
export const SERVER_SETTINGS_DEFAULTS = {
  noEmailCorrespondence: false,
  termsAgreement: true,
  locale: 'en',
  oddsType: 'decimal',
  betPlacingMode: 'GreaterOrEqualsToCurrent',
  priceChangeNotificationViewType: 'ARROW',
  standbyTimeoutMillis: 0,
  timeZoneId: 0,
  showCurrentBalance: true,
  currencyId: -1,
  showVipStatusAppIcon: false,
  showVipStatusAvatar: false,
} as const
