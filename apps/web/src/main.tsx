import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { sessionReady, startSession } from './app/session-runtime.ts';
import { applyColorSchemeAttribute, readStoredColorScheme } from './app/color-scheme.ts';

// Before the first render, so a dark-mode user never sees a light flash (no inline script: CSP).
applyColorSchemeAttribute(readStoredColorScheme());
// Starts checking the stored session while React boots; route loaders wait for it.
void startSession();

const container = document.getElementById('root');
if (container === null) throw new Error('index.html lacks #root');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
if (container.dataset.prerendered) {
  // Over the prerendered sign-in page (dist/login.html): render once the stored session is
  // checked, so the first render is final (the form, or the redirect of a signed-in visitor) and
  // the page already shown is not swapped for a loader; as a transition, in slices that leave
  // the main thread free for the visitor's first keystrokes.
  void sessionReady().then(() => setTimeout(() => startTransition(() => createRoot(container).render(app)), 0));
} else {
  createRoot(container).render(app);
}
