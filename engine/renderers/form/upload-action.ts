/**
 * `documents.upload`: sends the file picked in a form's `file` widget (see ./files.ts) with its
 * document type as multipart to `punter/documents/upload` (spec §3 identity document types).
 * The type and size are checked here first, with the limits the server enforces again, so a
 * punter on a slow phone network learns about a 20 MB photo before it is sent. Refusals come
 * back as field errors on the file field (`server.error.FILE_TOO_LARGE`, `…UNSUPPORTED_FILE_TYPE`).
 */
import type { Result } from '../../../kernel/core/contracts'
import { authController } from '../../actions/auth'
import { MOBILE_GATE } from '../../actions/join'
import { defineAction } from '../../actions/registry'
import { definitions } from '../../../kernel/actions/form-upload'
import { fileProblem, pickedFile } from './files'

const FILE_CODES = new Set(['FILE_TOO_LARGE', 'UNSUPPORTED_FILE_TYPE'])

export const documentsUpload = defineAction(definitions, {
  name: 'documents.upload',
  async handler({ documentType, field }, env): Promise<Result<unknown>> {
    const name = field ?? 'document'
    const file = pickedFile(name)
    if (!file) return { ok: false, code: 'ValidationError', details: [{ field: name, code: 'required' }] }
    const problem = fileProblem(file)
    if (problem) return { ok: false, code: problem, details: [{ field: name, code: problem }] }
    const body = new FormData()
    body.set('documentType', documentType)
    body.set('document', file, file.name)
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/punter/documents/upload`, body)
    if (!result.ok) return FILE_CODES.has(result.code) ? { ...result, details: [{ field: name, code: result.code }] } : result
    await authController(env).loadUser()
    return result
  },
})
