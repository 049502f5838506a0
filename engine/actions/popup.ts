/**
 * Popup actions: the ui store holds the stack (spec §3 Popup); the renderer loads each popup's
 * document by id and shows it with its modal kind and animation.
 */
import { defineAction } from './registry'

/** The spec's popup animations (same list as POPUP_ANIMATIONS in documents/kinds.ts; copied so the
 * client bundle does not pull in every document schema — a test keeps them equal). */
export const POPUP_ANIMATION_NAMES = ['slide-fade', 'slide', 'fade'] as const

export const popupOpen = defineAction({
  name: 'popup.open',
  description: 'Opens a popup document by id on top of the popup stack.',
  params: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string', description: 'The popup document id.' },
      params: { type: 'object', description: 'Values the popup reads as data.params.' },
      animation: { enum: POPUP_ANIMATION_NAMES, description: "Overrides the document's animation." },
      stack: { type: 'boolean', description: 'false closes the open popups first (default true).' },
    },
    additionalProperties: false,
  },
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

export const popupClose = defineAction({
  name: 'popup.close',
  description: 'Closes the top popup, the popup with the given id, or all popups.',
  params: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'Close this popup (default: the top one).' },
      all: { type: 'boolean', description: 'Close every open popup.' },
    },
    additionalProperties: false,
  },
  async handler({ id, all }, env) {
    const ui = env.stores.ui.getState()
    if (all) ui.closeAllPopups()
    else ui.closePopup(id)
    return { ok: true, value: id ?? null }
  },
})

export const popupActions = [popupOpen, popupClose]
