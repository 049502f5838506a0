import type { ParamType } from './types'

/**
 * Param conversion (spec §5): bool is the text 'true'; json parses or yields null; integer and
 * number are parsed as floats (an unparsable number yields null); string is the value as text.
 */
export function convertParam(type: ParamType, raw: unknown): unknown {
  const text = raw === null || raw === undefined ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw)
  switch (type) {
    case 'bool':
      return text === 'true'
    case 'json':
      try {
        return JSON.parse(text)
      } catch {
        return null
      }
    case 'integer':
    case 'number': {
      const value = Number.parseFloat(text)
      return Number.isNaN(value) ? null : value
    }
    case 'string':
      return text
  }
}
