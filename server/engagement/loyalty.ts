/**
 * Loyalty (spec §3 loyaltyAccountInfo and the loyalty active campaign): campaigns are operator
 * documents (kind `loyalty-campaign`, schemas/loyalty/); which sites load them is the jurisdiction
 * document's `loyalty.campaign` (spec §6: Curaçao and Russia). The punter's account (balance, tier,
 * bonusAvailable, needRequestRulesAcceptance) lives in the punter's profile.
 */
import type { Db } from '../db/database'
import type { Punter, PunterProfile } from '../punters/repository'

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

export function loyaltyAccountOf(db: Db, punterId: number): LoyaltyAccount {
  const row = db.prepare("SELECT json_extract(profile, '$.loyalty') AS loyalty FROM punters WHERE id = ?").get(punterId) as { loyalty: string | null } | undefined
  return { ...NO_LOYALTY, ...(row?.loyalty ? (JSON.parse(row.loyalty) as Partial<LoyaltyAccount>) : {}) }
}

/** The punter accepts the loyalty rules: needRequestRulesAcceptance goes false, nothing else changes. */
export function acceptLoyaltyRules(db: Db, punter: Punter, now: number): LoyaltyAccount {
  const account = { ...loyaltyAccountOf(db, punter.id), needRequestRulesAcceptance: false }
  db.prepare("UPDATE punters SET profile = json_set(profile, '$.loyalty', json(?)), updated_at = ? WHERE id = ?").run(JSON.stringify(account), now, punter.id)
  return account
}
