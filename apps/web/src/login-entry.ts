// Entry of /auth/login, whose HTML already holds the prerendered sign-in page (scripts/prerender.mjs).
// It brings the stylesheets that page needs and the remembered colour scheme, lets the page paint,
// and only then loads the console (main.tsx), which renders the same page over it.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/layouts/auth-layout.module.css';
import { applyColorSchemeAttribute, readStoredColorScheme } from './app/color-scheme.ts';
import { holdPrerenderedSubmits } from './features/auth/prerender-handoff.ts';

applyColorSchemeAttribute(readStoredColorScheme());
const root = document.getElementById('root');
if (root) holdPrerenderedSubmits(root);
requestAnimationFrame(() => setTimeout(() => void import('./main.tsx'), 0));
