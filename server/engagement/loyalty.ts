/**
 * Loyalty (spec §3 loyaltyAccountInfo and the loyalty active campaign): campaigns are operator
 * documents (kind `loyalty-campaign`, schemas/loyalty/); which sites load them is the jurisdiction
 * document's `loyalty.campaign` (spec §6: Curaçao and Russia). The punter's account (balance, tier,
 * bonusAvailable, needRequestRulesAcceptance) lives in the punter's profile, read and written
 * through the punters store's functions (issue 16: no SQL of this file touches its table).
 */
import type { DataLayer } from '../db/data-layer'
import { updateProfile } from '../punters/lookups'
import { findPunterById, type Punter, type PunterProfile } from '../punters/repository'

export interface LoyaltyCampaignDocument {
  id: string
  landingUrl: string
  mainPrizeKey: string
  mainPrizeCardKey: string
  commonTitleKey: string
  startTime: string
  endTime: string
  prizes?: { id: string; title: string; points: number }[]
}

export type LoyaltyAccount = NonNullable<PunterProfile['loyalty']>

export const NO_LOYALTY: LoyaltyAccount = { balance: 0, tier: 'Common', bonusAvailable: false, needRequestRulesAcceptance: false }

export const runsAt = (campaign: LoyaltyCampaignDocument, now: number) => Date.parse(campaign.startTime) <= now && now < Date.parse(campaign.endTime)

/** Source items as spec §3 names them: the browser looks the texts up by key for its locale. */
export const campaignItem = (c: LoyaltyCampaignDocument) => ({ id: c.id, landingUrl: c.landingUrl, mainPrizeKey: c.mainPrizeKey, mainPrizeCardKey: c.mainPrizeCardKey, commonTitleKey: c.commonTitleKey })

export async function loyaltyAccountOf(data: DataLayer, punterId: number): Promise<LoyaltyAccount> {
  const punter = await findPunterById(data, punterId)
  return { ...NO_LOYALTY, ...(punter?.profile.loyalty ?? {}) }
}

/** The punter accepts the loyalty rules: needRequestRulesAcceptance goes false, nothing else changes. */
export async function acceptLoyaltyRules(data: DataLayer, punter: Punter, now: number): Promise<LoyaltyAccount> {
  // one patch of the stored profile (read and written under the punter's lock): a tier or balance
  // changed meanwhile by another instance is kept
  const profile = await updateProfile(data, punter.id, now, (p) => ({ ...p, loyalty: { ...NO_LOYALTY, ...(p.loyalty ?? {}), needRequestRulesAcceptance: false } }))
  return { ...NO_LOYALTY, ...(profile?.loyalty ?? {}), needRequestRulesAcceptance: false }
}
