/**
 * What stops the bet slip, said to the punter (literal keys, so the texts lint finds each in every
 * locale). Imports nothing of the renderers' runtime, so the lazy sheet can use it (see
 * ./slip-parts.ts on why the sheet never imports ../runtime).
 */
import type { SlipBlock } from '../../core/betslip'
export function slipBlockText(t: (key: string) => string, block: SlipBlock | null): string {
  switch (block) {
    case 'PRICES_CHANGED':
      return t('betslip.block.PRICES_CHANGED')
    case 'RELATED':
      return t('betslip.block.RELATED')
    case 'INACTIVE':
      return t('betslip.block.INACTIVE')
    case 'CHECKING':
      return t('betslip.block.CHECKING')
    default:
      return ''
  }
}
