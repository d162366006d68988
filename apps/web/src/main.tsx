import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startSession } from './app/session-runtime.ts';
import { applyColorSchemeAttribute, readStoredColorScheme } from './app/theme.ts';

// Before the first render, so a dark-mode user never sees a light flash (no inline script: CSP).
applyColorSchemeAttribute(readStoredColorScheme());
// Starts checking the stored session while React boots; route loaders wait for it.
void startSession();

const container = document.getElementById('root');
if (container === null) throw new Error('index.html lacks #root');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
