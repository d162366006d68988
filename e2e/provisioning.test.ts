import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedDevice } from '../apps/simulator/src/device.ts';
import type { ProvisionFault } from '../apps/simulator/src/provision.ts';
import { audit } from './helpers/axe.ts';
import { ADMIN, chromiumPath, signIn, startHarness, type Harness } from './helpers/browser.ts';

/**
 * Provisioning as an administrator does it: the row's Provision button, the modal following the
 * session live until Success, and a partial failure reaching Partially Succeeded with its notice.
 */
let h: Harness;
const ENTITY = `prov_${randomBytes(3).toString('hex')}`;
const ACCOUNT = { name: `prov_admin_${randomBytes(2).toString('hex')}`, password: 'provision-1' };
const devices: SimulatedDevice[] = [];
const SHOTS = path.resolve(import.meta.dirname, '../docs/screenshots');

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness({ shared: true });
  const root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  await h.server.request('POST', '/api/v1/tenant', {
    token: root,
    body: { document: { name: { name: ENTITY, description: '' } } },
  });
  await h.server.request('POST', '/api/v1/account', {
    token: root,
    body: {
      document: { ...ACCOUNT, email: 'p@x.test', subtype: 'admin', entity: ENTITY, access: ['all'] },
    },
  });
  for (const [i, name] of ['config/app.json', 'sounds/chime.wav', 'maps/floor1.png', 'fonts/ui.ttf'].entries()) {
    const form = new FormData();
    form.append('level', 'entity');
    form.append('entity_id', ENTITY);
    form.append('file_device_path', name);
    form.append('file', new Blob([randomBytes(30_000 + i)]), path.basename(name));
    const res = await fetch(`${h.server.url}/api/v1/tenant/${ENTITY}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${root}` },
      body: form,
    });
    expect(res.status).toBe(201);
  }
  for (const fault of ['none', 'some-fail', 'stall'] as ProvisionFault[]) {
    const id = randomBytes(6).toString('hex');
    const res = await h.server.request('POST', `/api/v1/tenant/${ENTITY}/device`, {
      token: root,
      body: { document: { name: id, description: `sim ${fault}`, manufacturing_type: 'CC1' } },
    });
    const d = new SimulatedDevice({
      id,
      entity: ENTITY,
      secret: res.body.data.mqtt.password,
      url: h.server.mqttUrl,
      sleeps: false,
      timeScale: 20,
      provisionFault: fault,
      status: { state: 'WAITING', fwVersion: '4.2.0' },
    });
    devices.push(d);
    d.start();
    await d.whenOnline();
  }
});
afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop()));
  await h?.close();
});

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });

async function provision(page: Page, device: string) {
  await page.goto('/device');
  await row(page, device)
    .getByRole('button', { name: `Provision device ${device}` })
    .click();
  return page.getByRole('dialog', { name: 'Provisioning' });
}

describe.skipIf(!chromiumPath)('provisioning in the console', () => {
  it('provisions a simulated device and the modal reaches Success', async () => {
    const { page, errors } = await h.newPage();
    await signIn(page, ACCOUNT);
    const device = devices[0]!.id;
    const modal = await provision(page, device);
    await modal.getByText(device, { exact: true }).waitFor();
    await modal.getByRole('status').getByText('Success', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByText('Provisioning Complete', { exact: true }).waitFor();
    expect(await modal.getByText('completed', { exact: true }).count()).toBe(4);
    await modal.getByRole('button', { name: /^Log/ }).click();
    await modal.getByText(/Provisioning complete: 4 of 4 files/).waitFor();
    await page.waitForTimeout(600); // the modal's 500 ms transition settles
    await page.screenshot({ path: path.join(SHOTS, 'provisioning-modal-light.png') });
    // The audit reloads the page in each scheme: a new session fills the modal each time.
    await audit(page, 'provisioning-modal', async (p) => {
      await row(p, device)
        .getByRole('button', { name: `Provision device ${device}` })
        .click();
      await modal.getByRole('status').getByText('Success', { exact: true }).waitFor({ timeout: 20_000 });
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a partial failure reaches Partially Succeeded with the warning notice', async () => {
    const { page, errors } = await h.newPage();
    await signIn(page, ACCOUNT);
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'dark'));
    const device = devices[1]!.id;
    const modal = await provision(page, device);
    await modal.getByRole('status').getByText('Partially Succeeded', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByText('Provisioning Complete with some errors', { exact: true }).waitFor();
    await modal.getByText('Provisioning Partially completed with errors', { exact: true }).waitFor();
    expect(await modal.getByText('failed', { exact: true }).count()).toBe(2);
    await modal.getByRole('button', { name: /^Log/ }).click();
    await page.waitForTimeout(600); // the modal's 500 ms transition settles
    await page.screenshot({ path: path.join(SHOTS, 'provisioning-modal-dark.png') });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('finds a running session again after a reload, and cancels it', async () => {
    const { page, errors } = await h.newPage();
    await signIn(page, ACCOUNT);
    const device = devices[2]!.id;
    const modal = await provision(page, device);
    await modal.getByRole('button', { name: 'Log (2)' }).waitFor({ timeout: 20_000 });
    const session = await modal.getByText(/^[0-9a-f]{8}-[0-9a-f-]{27}$/).textContent();
    await page.reload();
    // The device counts as provisioning (core §4): its row says so, and opens the same session.
    const busy = row(page, device).getByRole('button', { name: `Provisioning... device ${device}` });
    await busy.waitFor();
    await busy.click();
    await modal.getByText(session!, { exact: true }).waitFor();
    await modal.getByRole('status').getByText('In Progress', { exact: true }).waitFor();
    await modal.getByRole('button', { name: 'Cancel provisioning' }).click();
    await page.getByText('Provisioning Cancelled', { exact: true }).waitFor();
    await modal.waitFor({ state: 'hidden' });
    const kept = await h.server.request('GET', `/api/v1/tenant/${ENTITY}/provision/${device}`, {
      token: (await h.server.request('POST', '/api/v1/login', { body: ACCOUNT })).body.access_token,
    });
    expect(kept.body.data).toMatchObject({ session_id: session, status: 'cancelled' });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
