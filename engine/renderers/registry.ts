/**
 * Node kind → renderer. One line per kind, read top to bottom (DivKit's typeMap). A kind missing
 * here is skipped and reported by `RenderNode`; add a kind by adding its file and one line.
 */
import type { ComponentType } from 'react'
import type { NodeKind } from '../../kernel/documents/types'
import { BannerNode } from './nodes/BannerNode'
import { BetslipNode } from './nodes/BetslipNode'
import { GameNode } from './nodes/GameNode'
import { ButtonNode } from './nodes/ButtonNode'
import { CardNode } from './nodes/CardNode'
import { FormNode } from './nodes/FormNode'
import { ImageNode } from './nodes/ImageNode'
import { LinkNode } from './nodes/LinkNode'
import { LobbyNode } from './nodes/LobbyNode'
import { ListNode } from './nodes/ListNode'
import { MenuNode } from './nodes/MenuNode'
import { MoneyNode } from './nodes/MoneyNode'
import { MarketNode } from './nodes/MarketNode'
import { ScoreboardNode } from './nodes/ScoreboardNode'
import { OddsNode } from './nodes/OddsNode'
import { SectionNode } from './nodes/SectionNode'
import { SettingNode } from './nodes/SettingNode'
import { StackNode } from './nodes/StackNode'
import { TextNode } from './nodes/TextNode'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const nodeRenderers: Record<NodeKind, ComponentType<{ node: any }>> = {
  stack: StackNode,
  section: SectionNode,
  text: TextNode,
  button: ButtonNode,
  link: LinkNode,
  image: ImageNode,
  list: ListNode,
  menu: MenuNode,
  banner: BannerNode,
  card: CardNode,
  money: MoneyNode,
  form: FormNode,
  setting: SettingNode,
  odds: OddsNode,
  market: MarketNode,
  scoreboard: ScoreboardNode,
  betslip: BetslipNode,
  game: GameNode,
  lobby: LobbyNode,
}
