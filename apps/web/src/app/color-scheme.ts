// The remembered Dark Mode choice, without Mantine: the sign-in page's entry (login-entry.ts)
// applies it before anything paints and must stay a few hundred bytes.

/** localStorage key of the remembered Dark Mode choice; values 'light' or 'dark'. */
export const THEME_STORAGE_KEY = 'fleet.theme';

export type StoredColorScheme = 'light' | 'dark';

/** The remembered scheme, light when nothing (valid) is stored. */
export function readStoredColorScheme(): StoredColorScheme {
  try {
    return window.localStorage.getItem(THEME_STORAGE_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

/**
 * Mantine's ColorSchemeScript is an inline script, which our CSP forbids, so main.tsx sets
 * the attribute itself before the first render; this manager keeps it in sync afterwards.
 */
export function applyColorSchemeAttribute(scheme: StoredColorScheme): void {
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  rememberForServer(scheme);
}

/**
 * Mirrors the choice into a cookie: the server sends the prerendered sign-in page in this
 * scheme (apps/server/src/plugins/web.ts), so a dark-mode user is not shown a light page first.
 */
export function rememberForServer(scheme: string): void {
  document.cookie = `${THEME_COOKIE}=${scheme === 'dark' ? 'dark' : 'light'}; path=/; max-age=31536000; samesite=lax`;
}
const THEME_COOKIE = 'fleet-theme';
