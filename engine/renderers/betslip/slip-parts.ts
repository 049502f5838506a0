/**
 * The one door to the full bet slip's chunk (the sheet and the receipt): the betslip node loads it
 * when the punter first opens the slip or places a bet, so a betting page's first load carries
 * only the bar (./SlipBar.tsx).
 */
export { SlipSheet } from './SlipSheet'
export { SlipReceipt } from './SlipReceipt'
