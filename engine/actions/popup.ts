/**
 * Popup actions: the ui store holds the stack (spec §3 Popup); the renderer loads each popup's
 * document by id and shows it with its modal kind and animation.
 */
import { defineAction } from './registry'
import { definitions } from '../../kernel/actions/popup'

/** The spec's popup animations (one list, kernel/core/action-choices.ts, also behind documents/kinds.ts). */
export { POPUP_ANIMATION_NAMES } from '../../kernel/core/action-choices'

export const popupOpen = defineAction(definitions, {
  name: 'popup.open',
  async handler({ id, params, animation, stack }, env) {
    env.stores.ui.getState().openPopup({
      id,
      params: (params ?? {}) as Record<string, unknown>,
      ...(animation ? { animation } : {}),
      ...(stack === false ? { stack } : {}),
    })
    return { ok: true, value: id }
  },
})

export const popupClose = defineAction(definitions, {
  name: 'popup.close',
  async handler({ id, all }, env) {
    const ui = env.stores.ui.getState()
    if (all) ui.closeAllPopups()
    else ui.closePopup(id)
    return { ok: true, value: id ?? null }
  },
})

export const popupActions = [popupOpen, popupClose]
