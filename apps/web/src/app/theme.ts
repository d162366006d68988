import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

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
}

export const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
});
