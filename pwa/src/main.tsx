/** Entry point: styles, the service worker, the language, and the app. */
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerSW } from 'virtual:pwa-register';
import { App } from './App.tsx';
import { startLanguage } from './i18n/language.ts';
import { loadStoredSession } from './lib/storage.ts';
import './styles.css';

// autoUpdate: a new build takes over on the next load. The service worker only
// precaches the app shell; /api answers are never cached (see vite.config.ts).
registerSW({ immediate: true });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The first screen is already in its language (i18n/language.ts) and knows an offender's session after a reload
// (lib/storage.ts): the boot screen of index.html stays until both have arrived.
// The session first: the language of a signed-in user is theirs.
void loadStoredSession().then(startLanguage).then(render);

// The first render as a transition: React renders it in slices of a few milliseconds and lets the browser paint
// between them (the boot screen of index.html first), instead of one long task with every component's code
// still cold. Nothing on screen differs; the lists aim at Lighthouse ≥ 95.
function render(): void {
  startTransition(() => {
    createRoot(root!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
