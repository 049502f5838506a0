/**
 * The analytics remote-config GET's shared words (spec §7): its path and the remote-config keys
 * the analytics client may ask for — the ones it already reads from the boot data (events not
 * sent, session replay on). Shared by the server route and the browser client, so both agree.
 */
export const ANALYTICS_CONFIG_PATH = '/analytics/api/2/config'
export const ANALYTICS_CONFIG_KEYS = ['AMPLITUDE_DISABLED_EVENTS', 'AMPLITUDE_REPLAY'] as const
export type AnalyticsConfigKey = (typeof ANALYTICS_CONFIG_KEYS)[number]
