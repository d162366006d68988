// @vitest-environment happy-dom
import type { ReactElement } from 'react';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ConfirmDeleteProvider } from '@/components/ui/confirm-delete.tsx';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { GroupEditPage } from '../dispenser/group-edit-page.tsx';
import { SiteEditPage } from './site-edit-page.tsx';

const SITE_ID = '3f1c2a9e-5b7d-4e11-9a0c-6d2f8b4e7a10';
const GROUP_ID = '8a6e0b52-1c3d-4f7a-b9e2-0d4c6a8f1e37';
const info = { networkinfo: null, globalinfo: null, allocinfo: null, unallocinfo: null };
const stamps = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const empty = { street: '', number: '', postalcode: '', city: '', region: '', country: '' };
const SITE = { id: SITE_ID, name: 'Berlin_HQ', description: '', address: empty, gps_coordinates: [0, 0], ...info };
const GROUP = {
  id: GROUP_ID,
  name: 'Lobby_Left',
  description: '',
  capacity: 12,
  kiosk: null,
  location: { site: null, floor: null, gps_coordinates: null },
  configuration: null,
  has_certificate: false,
  state: { current: null },
  devices: 0,
  ...info,
};

function answer(url: string) {
  if (url.endsWith('/site/Berlin_HQ')) return { body: { data: { ...SITE, ...stamps } } };
  if (url.endsWith('/dispenser/Lobby_Left')) return { body: { data: { ...GROUP, ...stamps } } };
  return { body: { data: [] } };
}

async function titles(path: string, page: ReactElement, route: string) {
  signInAs();
  stubApi((call) => answer(call.url));
  const { user } = renderUi(
    <ConfirmDeleteProvider>
      <Routes>
        <Route path={path} element={page} />
      </Routes>
    </ConfirmDeleteProvider>,
    { route },
  );
  await user.click(await screen.findByRole('button', { name: 'Files' }));
  const files = await screen.findByRole('dialog');
  const filesTitle = files.querySelector('.mantine-Modal-title')?.textContent;
  await user.keyboard('{Escape}');
  await user.click(screen.getByRole('button', { name: 'Firmwares' }));
  const firmware = await screen.findByRole('dialog');
  return [filesTitle, firmware.querySelector('.mantine-Modal-title')?.textContent];
}

describe('the Files and Firmwares dialogs of a site and a group (issue 25)', () => {
  it('name the site by its name, not its UUID', async () => {
    expect(await titles('/site/:name', <SiteEditPage />, '/site/Berlin_HQ')).toEqual([
      'Files — site Berlin_HQ',
      'Firmware — site Berlin_HQ',
    ]);
  });

  it('name the group by its name, not its UUID', async () => {
    expect(await titles('/dispenser/:name', <GroupEditPage />, '/dispenser/Lobby_Left')).toEqual([
      'Files — group Lobby_Left',
      'Firmware — group Lobby_Left',
    ]);
  });
});
