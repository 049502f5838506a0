/**
 * Notifications (spec §3 Notification, §9: 8000 ms by default).
 */
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { defineAction } from './registry'
import { definitions } from '../../kernel/actions/notify'

export const notify = defineAction(definitions, {
  name: 'notify',
  async handler({ message, status, duration, values }, env) {
    const uid = env.stores.ui.getState().notify({
      id: message,
      status,
      duration: duration ?? NOTIFICATION_DURATION_MS,
      ...(values ? { values: values as Record<string, unknown> } : {}),
    })
    return { ok: true, value: uid }
  },
})

export const notifyActions = [notify]
