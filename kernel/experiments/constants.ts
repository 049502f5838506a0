/**
 * Every number and message of the experiment client that the product spec fixes (§8, §9).
 * Changing one of these changes the product, not an implementation detail.
 */

export const SDK_NAME = 'js'
export const SDK_VERSION = '3.5.6'

/** Cache TTL minimum and default, in seconds: a lower configured TTL becomes this. */
export const MIN_CACHE_TTL_SECONDS = 10
/** A visitor identifier (userId, profileId, deviceId, email) stops counting this long after it was set. */
export const IDENTIFIER_EXPIRY_MS = 86_400_000
export const FETCH_TIMEOUT_MS = 2000
export const FETCH_RETRIES = 2
export const STATUS_SUCCESS = 200
export const STATUS_FAILURE = 400
/** Allocation hash scale: points 0-99. */
export const HASH_SCALE = 100
export const PRIVATE_ID_LENGTH = 80
export const USER_AGENT_MAX_LENGTH = 350

/** Cookie whose presence (any non-empty value) disables the client. */
export const DISABLE_COOKIE_NAME = 'sigma_disabled'
/** Editor mode of the web builder: `?editor=start`. */
export const EDITOR_QUERY_PARAM = 'editor'
export const EDITOR_QUERY_VALUE = 'start'

export const MESSAGES = {
  tokenRequired: 'Please specify a token',
  tokenNotActive: 'Token is not active',
  disabled: 'Sigma was disabled',
  badConfig: 'Bad config.json',
  experimentsNotCached: 'Experiments not found in cache',
  configUnavailable: 'Sigma Error: Invalid token or configuration not published.',
  noStorage: 'Too bad, no localStorage for us',
} as const

/** Client storage keys of spec §3 ("Client storage keys"). */
export const STORAGE_KEYS = {
  geo: 'sigma_geo',
  dataFile: 'sigma_data_file',
  userData: 'sigma_user_data',
  configHash: 'sigma_config_hash',
  lastUpdateTime: 'sigma_last_update_time',
  privateId: 'sigma_private_id',
  experiments: 'sigma_experiments',
  expirationMap: 'sigma_expiration_map',
  forcedExperiments: 'sigma_forced_experiments',
} as const

/** Geo value stored when the geo call fails: the client continues with no location. */
export const GEO_NONE = 'none'

/**
 * The three named product experiments (spec §4). A punter is in the test group when the first
 * character of the experiment's param value is 'b'; the group index is returned too.
 */
export const PRODUCT_EXPERIMENTS = {
  depositButtonWhenNotActive: { experiment: 'depositButtonWhenNotActive', param: 'variant' },
  registrationMotivationIncrease: { experiment: 'registrationMotivation', param: 'variant' },
  depositErrorHandling: { experiment: 'depositErrorHandling', param: 'variant' },
} as const
export type ProductExperimentKey = keyof typeof PRODUCT_EXPERIMENTS
export const TEST_GROUP_PREFIX = 'b'
