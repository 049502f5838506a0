/**
 * The choices behind the account settings (spec §3 "Dictionary": time zones with id, name and
 * offset; available timeouts; betting modes; odds types), served by the dictionary module and used
 * by PUT /punter/settings to refuse a value that is not one of them.
 *
 * Time zone ids are fixed in this table (never derived from its order at run time), so a stored
 * timeZoneId keeps its meaning when zones are added; 0 is UTC, the server default. Offsets are
 * computed for the moment asked (daylight saving included), in minutes east of UTC (spec §9).
 */
import { zoneOffsetMinutes as offsetMinutes } from '../../kernel/core/time-zones'
import { BET_PLACING_MODES, ODDS_TYPES, oddsChangeAutoConfirm } from '../../kernel/core/odds'

export interface TimeZoneChoice {
  id: number
  /** The IANA name, e.g. Europe/Madrid. */
  name: string
  /** Minutes east of UTC at the moment asked. */
  offset: number
}

/** id → IANA zone. Append only: ids are stored in punters' settings. */
export const TIME_ZONES: readonly (readonly [number, string])[] = [
  [0, 'UTC'],
  [1, 'Europe/London'], [2, 'Europe/Lisbon'], [3, 'Europe/Madrid'], [4, 'Europe/Paris'], [5, 'Europe/Berlin'],
  [6, 'Europe/Rome'], [7, 'Europe/Copenhagen'], [8, 'Europe/Amsterdam'], [9, 'Europe/Warsaw'], [10, 'Europe/Athens'],
  [11, 'Europe/Kyiv'], [12, 'Europe/Minsk'], [13, 'Europe/Moscow'], [14, 'Europe/Istanbul'], [15, 'Europe/Samara'],
  [16, 'Asia/Yekaterinburg'], [17, 'Asia/Omsk'], [18, 'Asia/Novosibirsk'], [19, 'Asia/Krasnoyarsk'], [20, 'Asia/Irkutsk'],
  [21, 'Asia/Yakutsk'], [22, 'Asia/Vladivostok'], [23, 'Asia/Magadan'], [24, 'Asia/Kamchatka'], [25, 'Europe/Kaliningrad'],
  [26, 'Europe/Guernsey'], [27, 'Atlantic/Canary'], [28, 'Atlantic/Azores'], [29, 'Atlantic/Reykjavik'], [30, 'Africa/Lagos'],
  [31, 'Africa/Johannesburg'], [32, 'Africa/Cairo'], [33, 'Africa/Nairobi'], [34, 'Asia/Dubai'], [35, 'Asia/Tbilisi'],
  [36, 'Asia/Yerevan'], [37, 'Asia/Baku'], [38, 'Asia/Tashkent'], [39, 'Asia/Almaty'], [40, 'Asia/Kolkata'],
  [41, 'Asia/Bangkok'], [42, 'Asia/Singapore'], [43, 'Asia/Shanghai'], [44, 'Asia/Seoul'], [45, 'Asia/Tokyo'],
  [46, 'Australia/Sydney'], [47, 'Pacific/Auckland'], [48, 'Pacific/Honolulu'], [49, 'America/Anchorage'], [50, 'America/Los_Angeles'],
  [51, 'America/Denver'], [52, 'America/Chicago'], [53, 'America/New_York'], [54, 'America/Mexico_City'], [55, 'America/Bogota'],
  [56, 'America/Lima'], [57, 'America/Caracas'], [58, 'America/Curacao'], [59, 'America/Santiago'], [60, 'America/Sao_Paulo'],
  [61, 'America/Argentina/Buenos_Aires'], [62, 'America/Halifax'], [63, 'America/Montevideo'], [64, 'Asia/Jakarta'], [65, 'Asia/Manila'],
]
export const TIME_ZONE_IDS = TIME_ZONES.map(([id]) => id)

/** Every zone with its offset now, west to east, then by name. */
export function timeZones(at: number): TimeZoneChoice[] {
  return TIME_ZONES.map(([id, name]) => ({ id, name, offset: offsetMinutes(name, at) })).sort((a, b) => a.offset - b.offset || a.name.localeCompare(b.name))
}

/** Standby (auto-logout after inactivity) choices in ms; 0 is "never" (spec §9 default). */
export const STANDBY_TIMEOUTS_MS = [0, 5 * 60_000, 10 * 60_000, 15 * 60_000, 30 * 60_000, 60 * 60_000, 120 * 60_000] as const

export function availableTimeouts() {
  return STANDBY_TIMEOUTS_MS.map((id) => ({ id, minutes: id / 60_000 }))
}

/** Betting modes with what each means for a changed price (spec §3 mapping). */
export function bettingModes() {
  return BET_PLACING_MODES.map((id) => ({ id, autoConfirm: oddsChangeAutoConfirm(id) }))
}

const ODDS_TYPE_NAMES: Record<(typeof ODDS_TYPES)[number], string> = {
  decimal: 'Decimal',
  fractions: 'Fractional',
  american: 'American',
  hongkong: 'Hong Kong',
  indonesian: 'Indonesian',
  malaysian: 'Malaysian',
}

export function oddsTypes() {
  return ODDS_TYPES.map((id) => ({ id, name: ODDS_TYPE_NAMES[id] }))
}
