/** The operator studio's entry (issue 19): its own bundle, never part of the punter's site. */
import { createRoot } from 'react-dom/client'
import { Studio } from './Studio'
import './studio.css'

createRoot(document.getElementById('studio')!).render(<Studio />)
