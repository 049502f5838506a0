/**
 * The forms chunk's entry, reached only through `React.lazy` (`../nodes/FormNode.tsx`): rjsf, its
 * utils, our theme and the form actions stay out of the lobby's first load. The component itself
 * is in ./flow-form.tsx, which the server imports too (it renders a server-rendered page's forms
 * eagerly, issue 10); the stylesheet and the action registrations are the browser's business.
 */
import { registerFormActions } from './actions'
import './form.css'

registerFormActions()

export { default, prepareForm } from './flow-form'
