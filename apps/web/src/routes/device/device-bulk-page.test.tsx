// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aDevice } from '@/lib/device/test-fixtures.ts';
import { actingEntity } from '@/lib/session/acting-entity-state.ts';
import { fill, renderUi, signInAs, stubApi, type ApiCall } from '@/test/render.tsx';
import { DeviceBulkPage } from './device-bulk-page.tsx';

const downloads = vi.hoisted(() => [] as { name: string; text: string }[]);
vi.mock('@/lib/download.ts', () => ({
  downloadText: (name: string, text: string) => downloads.push({ name, text }),
}));

/** The device create answers: each device with its credentials, except the names in `taken`. */
function answerCreates(taken: string[] = []) {
  return stubApi((call: ApiCall) => {
    const name = (call.body as { document?: { name?: string } } | undefined)?.document?.name ?? '';
    if (call.method !== 'POST') return {};
    if (taken.includes(name))
      return { status: 409, body: { errorInfo: { code: 409, userMessage: 'This Device ID is already registered' } } };
    return {
      status: 201,
      body: {
        status: 'Device created',
        data: { ...aDevice({ name }), mqtt: { username: name, password: `pw-${name}` } },
      },
    };
  });
}

async function upload(csv: string) {
  const rendered = renderUi(
    <Routes>
      <Route path="/devices/new-multiple" element={<DeviceBulkPage />} />
      <Route path="/device" element={<p>The device list</p>} />
    </Routes>,
    { route: '/devices/new-multiple' },
  );
  const { user } = rendered;
  await fill(user, /^Manufacture type/, 'Dispenser v2');
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  await user.upload(input, new File([csv], 'devices.csv', { type: 'text/csv' }));
  await screen.findByText(/^Preview: /);
  await user.click(screen.getByRole('button', { name: 'Add Devices' }));
  return rendered;
}

describe('the bulk upload page', () => {
  afterEach(() => actingEntity.set(null));

  it('offers the added devices’ credentials once as a CSV after a full upload, then opens the list', async () => {
    signInAs();
    downloads.length = 0;
    const calls = answerCreates();
    const { user } = await upload('Device ID\naaaa00000001\naaaa00000002\n');
    await screen.findByRole('heading', { name: '2 devices added' });
    expect(screen.getByText('Shown once')).toBeTruthy();
    // Still one device add per row (fleet §5).
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/v1/tenant/acme/device',
      '/api/v1/tenant/acme/device',
    ]);
    await user.click(screen.getByRole('button', { name: 'Download credentials (CSV)' }));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.name).toMatch(/^device-credentials-.*\.csv$/);
    expect(downloads[0]!.text).toBe(
      'Device ID,MQTT username,MQTT password\r\n' +
        'aaaa00000001,aaaa00000001,pw-aaaa00000001\r\n' +
        'aaaa00000002,aaaa00000002,pw-aaaa00000002\r\n',
    );
    await user.click(screen.getByRole('button', { name: 'Go to the device list' }));
    await screen.findByText('The device list');
  });

  it('offers the credentials of the devices a partial upload added, above its results', async () => {
    signInAs();
    downloads.length = 0;
    answerCreates(['aaaa00000002']);
    const { user } = await upload('Device ID\naaaa00000001\naaaa00000002\n');
    await screen.findByRole('heading', { name: 'Credentials of the 1 device added' });
    expect(screen.getByRole('table', { name: 'Rows not added' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Go to the device list' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Download credentials (CSV)' }));
    expect(downloads[0]!.text).toBe(
      'Device ID,MQTT username,MQTT password\r\naaaa00000001,aaaa00000001,pw-aaaa00000001\r\n',
    );
  });

  it('adds to the entity a superadmin has opened, as its users do: no entity to choose', async () => {
    signInAs({ subtype: 'sadmin', entity: 'landlord', permissions: ['all'] });
    actingEntity.set('globex');
    downloads.length = 0;
    const calls = answerCreates();
    await upload('Device ID\naaaa00000001\n');
    await screen.findByRole('heading', { name: '1 device added' });
    expect(screen.queryByLabelText(/^Entity/)).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/v1/tenant/globex/device']);
    expect(calls.some((c) => c.url.endsWith('/api/v1/tenant'))).toBe(false);
  });
});
