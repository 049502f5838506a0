/**
 * The visitor's geo for the experiment client, from the site (the server buckets a guest the same way).
 */
import type { Geo } from './types'

/** Sites know their country (the jurisdiction document's `country` and `countryName`), so geo is
 * supplied by the host and the geo call is skipped. (Not Intl.DisplayNames: its first use loads
 * region data, about 90 ms of main thread on a mid-range phone, on the lobby's first load.) */
export function siteGeo(site: { country?: string; countryName?: string } | undefined): Geo | undefined {
  return site?.country ? { code: site.country, country: site.countryName ?? site.country } : undefined
}
