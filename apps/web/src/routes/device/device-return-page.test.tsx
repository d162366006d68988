// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DEVICE } from '@/features/devices/components/device-row.test-helpers.tsx';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { DeviceReturnPage } from './device-return-page.tsx';

const stamps = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const group = (name: string) => ({
  id: `id-${name}`,
  name,
  description: '',
  capacity: 12,
  kiosk: 'Berlin_Lobby',
  location: { site: 'Berlin_HQ', floor: null, gps_coordinates: null },
  configuration: null,
  networkinfo: null,
  globalinfo: null,
  allocinfo: null,
  unallocinfo: null,
  has_certificate: false,
  state: { current: null },
  devices: 3,
  ...stamps,
});

function renderPage({ dispensersRefused = false } = {}) {
  signInAs();
  const device = { ...DEVICE, group: 'Lobby_Left', last_dispenser: { dispenser: 'Lobby_Left' } };
  const calls = stubApi(({ url }) => {
    if (url.includes('/dispenser') && dispensersRefused)
      return { status: 403, body: { userMessage: 'Forbidden', developerMessage: 'Forbidden' } };
    if (url.includes('/dispenser')) return { body: { data: [group('Lobby_Left'), group('Lobby_Returns')], total: 2 } };
    if (url.includes(`/device/${DEVICE.name}`)) return { body: { data: device } };
    if (url.includes('client-config')) return { body: { kiosk_manager_url: null } };
    if (url.endsWith('/return')) return { status: 202, body: { status: 'queued', userMessage: 'asleep', data: null } };
    return {};
  });
  const rendered = renderUi(
    <Routes>
      <Route path="/device/:name/deploy" element={<DeviceReturnPage />} />
    </Routes>,
    { route: `/device/${DEVICE.name}/deploy` },
  );
  return { calls, ...rendered };
}

const returnButton = () => screen.getByRole('button', { name: 'Return' });

describe('Return Device (fleet §2; issue 25)', () => {
  it('says the device is already in the chosen dispenser and sends nothing', async () => {
    const { user, calls } = renderPage();
    await user.click(
      await screen.findByRole('radio', { name: 'Return to dispenser Lobby_Left of kiosk Berlin_Lobby' }),
    );
    expect(screen.getByRole('alert').textContent).toBe(`Device ${DEVICE.name} is already in dispenser Lobby_Left`);
    expect(returnButton().hasAttribute('disabled')).toBe(true);
    await user.click(returnButton());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('returns it to another dispenser of the kiosk', async () => {
    const { user, calls } = renderPage();
    await user.click(
      await screen.findByRole('radio', { name: 'Return to dispenser Lobby_Returns of kiosk Berlin_Lobby' }),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(returnButton());
    await expect
      .poll(() => calls.filter((c) => c.method === 'POST').map((c) => [c.url.replace(/^.*\/kiosk\//, ''), c.body]))
      .toEqual([['acme/Berlin_Lobby/return', { device: DEVICE.name, dispenser: 'Lobby_Returns' }]]);
  });

  it('says in words that the account cannot read the dispensers when the server refuses, with no retry', async () => {
    renderPage({ dispensersRefused: true });
    await screen.findByText(/Your account cannot read the dispensers\./);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText('The dispensers could not be loaded.')).toBeNull();
  });
});
