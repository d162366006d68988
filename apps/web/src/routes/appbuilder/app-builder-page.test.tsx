// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { theme } from '@/app/theme.ts';
import { signInAs, stubApi } from '@/test/render.tsx';
import { AppBuilderPage } from './app-builder-page.tsx';

const DATAVIEW = {
  name: 'welcome_kiosk',
  entity: 'acme',
  description: '',
  version: '1.0',
  owner: 'alice',
  authorized_accounts: [],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  content: { format: 1, name: 'welcome_kiosk', displayName: 'Welcome', layout: { items: [] } },
};

/** The builder in a data router (useBlocker needs one), with a link out of it. */
function renderBuilder() {
  signInAs({ permissions: ['all'] });
  stubApi(({ url }) => (url.includes('/dataview/welcome_kiosk') ? { body: { data: DATAVIEW } } : {}));
  const router = createMemoryRouter(
    [
      {
        path: '/appbuilder/:name',
        element: (
          <>
            <Link to="/dataview">Dataviews</Link>
            <AppBuilderPage />
          </>
        ),
      },
      { path: '/dataview', element: <h1>Dataview list</h1> },
    ],
    { initialEntries: ['/appbuilder/welcome_kiosk'] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { router, user: userEvent.setup({ delay: null, pointerEventsCheck: 0 }) };
}

const unload = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('the app builder with unsaved changes (issue 25)', () => {
  it('leaves at once while nothing changed', async () => {
    const { user } = renderBuilder();
    await screen.findByRole('button', { name: 'Add Text' });
    expect(unload()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Dataviews' }));
    await screen.findByRole('heading', { name: 'Dataview list' });
  });

  it('asks before leaving: Stay keeps the changes, Leave without saving goes', async () => {
    const { user, router } = renderBuilder();
    await user.click(await screen.findByRole('button', { name: 'Add Text' }));
    await screen.findByText('Unsaved changes');
    expect(unload()).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Dataviews' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog.textContent).toContain('The layout has changes that are not saved.');
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/appbuilder/welcome_kiosk');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    await user.click(screen.getByRole('link', { name: 'Dataviews' }));
    await user.click(await screen.findByRole('button', { name: 'Leave without saving' }));
    await screen.findByRole('heading', { name: 'Dataview list' });
    expect(unload()).toBe(false);
  });
});
