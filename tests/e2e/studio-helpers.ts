/**
 * What the studio's browser tests do as staff: sign in through the page (password and the
 * authenticator's code), type a document into the code editor as a person would, and wait on a
 * version's state itself.
 */
import type { Browser, Page } from '@playwright/test'
import { adminLogInByPage, expect, type StaffLogin } from './fixtures'

/** A staff member's page at a desktop size, signed in through the sign-in page, with clipboard access. */
export async function staffSignIn(browser: Browser, baseURL: string, who: StaffLogin): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 1000 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const page = await context.newPage()
  await adminLogInByPage(page, who)
  return page
}

/**
 * Waits on the version's state itself. Submitting runs the lint gate over every document, which
 * takes seconds on a busy machine: the wait is bounded by the test's timeout, not a 5 s expect.
 */
export async function expectVersionState(page: Page, state: string): Promise<void> {
  await expect(page.getByTestId('version-state')).toHaveAttribute('data-state', state, { timeout: 0 })
}

/** The operator's change typed into the studio's code editor over the document as its site is
 * served it (select all, copy it out, then the new text as a paste would put it), saved; the
 * draft's page is open when it returns. */
export async function typeDraftInStudio(op: Page, file: string, edit: (doc: Record<string, any>) => void): Promise<void> {
  await op.goto(`/admin/studio?file=${encodeURIComponent(file)}`)
  await op.getByTestId('studio-view-code').click()
  const code = op.locator('.code-editor .cm-content')
  await expect(code).toBeVisible()
  // the whole text, copied out as a person would (CodeMirror draws only the lines on screen)
  await code.click()
  await op.keyboard.press('ControlOrMeta+a')
  await op.keyboard.press('ControlOrMeta+c')
  const doc = JSON.parse(await op.evaluate(() => navigator.clipboard.readText()))
  edit(doc)
  await op.keyboard.insertText(JSON.stringify(doc, null, 2))
  await op.getByTestId('studio-save').click()
  await op.getByTestId('studio-open-draft').click()
  await expectVersionState(op, 'draft')
}
