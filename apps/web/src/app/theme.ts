import {
  createTheme,
  localStorageColorSchemeManager,
  type CSSVariablesResolver,
  type MantineColorSchemeManager,
} from '@mantine/core';
import { rememberForServer, THEME_STORAGE_KEY } from './color-scheme.ts';

const stored = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });
/** Mantine's localStorage manager that also mirrors each change into the cookie the server reads. */
export const colorSchemeManager: MantineColorSchemeManager = {
  ...stored,
  set(value) {
    stored.set(value);
    rememberForServer(value);
  },
};

export const theme = createTheme({
  primaryColor: 'indigo',
  // Mantine's default light shade (6) puts white button text at 4.3:1; shade 7 passes WCAG AA (5:1).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  // Close buttons need names (axe: button-name). Plain objects, not Modal.extend(): importing
  // the components here would put them on the login page.
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notice' } } },
  },
});

/**
 * Colours Mantine's defaults leave below WCAG AA's 4.5:1, raised to pass on the page, card and
 * input backgrounds: dimmed text (gray-6 on white is 3.3:1), error text (red-6, 3.3:1; red-8 on
 * dark-7, 3.4:1), white on filled red (red-7, 3.8:1), and the text of light red variants
 * (red-7 on red-1). Secondary text stays grey, errors stay red.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5f666d',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': 'var(--mantine-color-red-8)',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': '#a8a8a8',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': 'var(--mantine-color-red-8)',
  },
});
