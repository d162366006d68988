import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { NoticeHost } from './notice-host.tsx';
import { readStoredColorScheme } from './color-scheme.ts';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

/**
 * Theme and notices for the whole app. The query cache is provided by the signed-in shell
 * (see layouts/shell-layout.tsx): the login page has no server state to cache.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme={readStoredColorScheme()}
    >
      <NoticeHost />
      {children}
    </MantineProvider>
  );
}
