/**
 * One account setting (spec §3 "Account settings keys") as a control: a switch, a choice list
 * (fixed options and/or a dictionary call), a number or money field, or a read-only value. The value is
 * read from the settings store and saved with account.saveSettings: server-side keys through
 * PUT /punter/settings, local-only keys in this browser. The document decides which settings a
 * site shows, in what order and with what choices.
 */
import { Suspense, useEffect, useId, useState, useSyncExternalStore, type ReactNode } from 'react'
import { readSetting, type SettingKey } from '../../auth/settings'
import type { ActionChain, NodeOf } from '../../../kernel/documents/types'
import { currencyCode } from '../../../kernel/core/format'
import { LazyNumberSetting as NumberSetting } from '../amount-field-lazy'
import { useEvaluate, useRuntime, useScopeExtras, type EngineRuntime } from '../runtime'

type SettingNodeDocument = NodeOf<'setting'>
type Choice = { value: string | number | boolean; label: string }
type Status = 'idle' | 'saving' | 'saved' | 'failed'

function useSetting(runtime: EngineRuntime, key: SettingKey): unknown {
  const store = runtime.stores.settings
  return useSyncExternalStore(store.subscribe, () => readSetting(runtime.stores, key), () => readSetting(runtime.stores, key))
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0')
/** "(UTC+02:00) Europe/Madrid": the offset first, so the list reads west to east. */
function timeZoneLabel(entry: Record<string, unknown>): string {
  const offset = Number(entry.offset) || 0
  const sign = offset < 0 ? '−' : '+'
  return `(UTC${sign}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}) ${String(entry.name ?? '').replaceAll('_', ' ')}`
}

function currencyLabel(entry: Record<string, unknown>, locale: string): string {
  const code = String(entry.code ?? '')
  try {
    return `${code} · ${new Intl.DisplayNames([locale], { type: 'currency' }).of(code) ?? entry.name}`
  } catch {
    return `${code} · ${String(entry.name ?? '')}`
  }
}

/** The label of a dictionary entry, as the node's source asks. */
function sourceLabel(entry: Record<string, unknown>, source: NonNullable<SettingNodeDocument['source']>, t: (key: string, options?: Record<string, unknown>) => string, locale: string): string {
  switch (source.show) {
    case 'i18n':
      return t(`${source.prefix ?? 'settings'}.${String(entry.id)}`)
    case 'timeZone':
      return timeZoneLabel(entry)
    case 'minutes':
      return Number(entry.minutes) === 0 ? t('settings.timeout.never') : t('settings.timeout.minutes', { count: Number(entry.minutes) })
    case 'currency':
      return currencyLabel(entry, locale)
    default:
      return String(entry.name ?? entry.id)
  }
}

/** Fixed options first, then the dictionary's entries (loaded once per mount). */
function useChoices(node: SettingNodeDocument, text: (t: never) => string): Choice[] {
  const runtime = useRuntime()
  const { ctx } = useEvaluate()
  const [entries, setEntries] = useState<Record<string, unknown>[]>([])
  const url = node.source?.url
  useEffect(() => {
    if (!url) return
    let live = true
    void runtime.fetchData(url).then((data) => {
      if (live && Array.isArray(data)) setEntries(data.filter((e): e is Record<string, unknown> => Boolean(e) && typeof e === 'object'))
    })
    return () => {
      live = false
    }
  }, [runtime, url])
  const fixed = (node.options ?? []).map((o) => ({ value: o.value, label: text(o.label as never) }))
  const loaded = node.source ? entries.map((e) => ({ value: e.id as string | number, label: sourceLabel(e, node.source!, runtime.t, ctx.site.locale) })) : []
  return [...fixed, ...loaded]
}

interface SelectSettingProps {
  node: SettingNodeDocument
  id: string
  shown: unknown
  common: { id: string; disabled: boolean; 'aria-describedby': string | undefined }
  label: string
  choices: Choice[]
  hint: ReactNode
  statusLine: ReactNode
  save: (next: unknown) => Promise<void>
}

/** The select control: the stored value's choice, or an extra blank (or the raw value) when no choice matches it. */
function SelectSetting({ node, id, shown, common, label, choices, hint, statusLine, save }: SelectSettingProps) {
  const index = choices.findIndex((c) => c.value === shown)
  return (
    <div className="setting" data-control="select" data-testid={node.testId} data-key={node.key}>
      <label className="setting__label" htmlFor={id}>
        {label}
      </label>
      <select {...common} className="setting__select" value={index >= 0 ? String(index) : ''} onChange={(e) => void save(choices[Number(e.currentTarget.value)]?.value)}>
        {index < 0 && <option value="">{shown === null || shown === undefined ? '' : String(shown)}</option>}
        {choices.map((choice, i) => (
          <option key={`${String(choice.value)}-${i}`} value={String(i)}>
            {choice.label}
          </option>
        ))}
      </select>
      {hint}
      {statusLine}
    </div>
  )
}

export function SettingNode({ node }: { node: SettingNodeDocument }) {
  const runtime = useRuntime()
  const scope = useScopeExtras()
  const { text, when, ctx } = useEvaluate()
  const id = useId()
  const key = node.key as SettingKey
  const stored = useSetting(runtime, key)
  const [pending, setPending] = useState<{ value: unknown } | null>(null)
  const [status, setStatus] = useState<Status>('idle')
  const choices = useChoices(node, text as (t: never) => string)
  const enabled = node.enabled === undefined || when(node.enabled)
  const shown = pending ? pending.value : stored

  async function save(next: unknown) {
    setPending({ value: next })
    setStatus('saving')
    const chain: ActionChain = [{ do: 'account.saveSettings', with: { settings: { [key]: next } }, onSuccess: (node.onChange ?? []) as ActionChain }]
    const result = await runtime.run(chain, scope)
    setPending(null)
    setStatus(result.ok ? 'saved' : 'failed')
  }

  const label = <span className="setting__label">{text(node.label)}</span>
  const hint = node.hint ? <span className="setting__hint" id={`${id}-hint`}>{text(node.hint)}</span> : null
  const statusLine = (
    <span className="setting__status" role="status" data-status={status}>
      {status === 'saved' ? runtime.t('settings.saved') : status === 'failed' ? runtime.t('settings.notSaved') : ''}
    </span>
  )
  const common = { id, disabled: !enabled || status === 'saving', 'aria-describedby': node.hint ? `${id}-hint` : undefined }

  if (node.control === 'switch')
    return (
      <div className="setting" data-control="switch" data-testid={node.testId} data-key={key}>
        <label className="setting__row" htmlFor={id}>
          {label}
          <input {...common} type="checkbox" role="switch" className="setting__switch" checked={shown === true} onChange={(e) => void save(e.currentTarget.checked)} />
        </label>
        {hint}
        {statusLine}
      </div>
    )

  if (node.control === 'select')
    return <SelectSetting node={node} id={id} shown={shown} common={common} label={text(node.label)} choices={choices} hint={hint} statusLine={statusLine} save={save} />

  if (node.control === 'number' || node.control === 'money')
    return (
      <Suspense fallback={null}>
        <NumberSetting node={node} id={id} shown={shown} common={common} label={text(node.label)} hint={hint} statusLine={statusLine} save={save} locale={ctx.site.locale} currency={currencyCode(ctx.user.currency)} displays={runtime.stores.site.getState().bootstrap?.site.currencyDisplay} t={runtime.t} />
      </Suspense>
    )

  return (
    <div className="setting" data-control="value" data-testid={node.testId} data-key={key}>
      <span className="setting__row">
        {label}
        <output className="setting__value" id={id}>
          {shown === null || shown === undefined || shown === '' ? runtime.t('settings.notDetected') : String(shown)}
        </output>
      </span>
      {hint}
    </div>
  )
}
