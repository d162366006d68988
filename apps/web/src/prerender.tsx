// Server-side render of the sign-in page, run once at build time (scripts/prerender.mjs): the
// HTML the server sends for /auth/login already holds the form, so the page paints before any
// script has loaded. main.tsx then renders the same page over it.
import { MantineProvider } from '@mantine/core';
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { AuthLayout } from './app/layouts/auth-layout.tsx';
import { cssVariablesResolver, theme } from './app/theme.ts';
import { LoginPage } from './routes/auth/login-page.tsx';
import { LOGIN_PATH } from './lib/navigation/redirect-target.ts';

/** The sign-in page's markup, as the client's first render draws it. */
export function renderLoginPage(): string {
  return renderToString(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <StaticRouter location={LOGIN_PATH}>
        <Routes>
          <Route element={<AuthLayout />}>
            <Route path={LOGIN_PATH} element={<LoginPage />} />
          </Route>
        </Routes>
      </StaticRouter>
    </MantineProvider>,
  );
}
