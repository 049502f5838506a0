/**
 * The one door to the full bet slip's chunk (the sheet and the receipt): the betslip node loads it
 * when the punter first opens the slip or places a bet, so a betting page's first load carries
 * only the bar (./SlipBar.tsx).
 *
 * Nothing in this chunk imports ../runtime (or a module that does): the runtime and the slip's
 * figures come in as props. A second lazy chunk reaching runtime.tsx (the forms chunk is the
 * first) made the bundler split React, zustand and the engine's core out of the first-load
 * script into seven extra chunks (measured: `npx vite build`, the page's data-preload list).
 */
export { SlipSheet } from './SlipSheet'
export { SlipReceipt } from './SlipReceipt'
