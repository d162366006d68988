import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balancerPrerequisites,
  launchChromium,
  SHOTS,
  startBalancer,
  startInstances,
  until,
  uploadEntityFiles,
  type Balancer,
  type Instance,
} from '../helpers/balancer.ts';
import { connectDevice, registerDevice, type TestDevice } from '../helpers/devices.ts';
import { ADMIN, requester, type TestServer } from '../helpers/server.ts';
import { createAccount, signIn } from '../helpers/session.ts';

/**
 * The console in Chromium through HAProxy (the configuration shipped in docs/deploy/), in front
 * of two API instances: sign-in through the form, the device list, and a provisioning modal
 * following its session's event stream while the instance serving that stream is killed with
 * SIGKILL. The modal reaches the end with every file complete and every event shown once (its
 * stream resumed on the other instance from its last event id), and the list still loads.
 */
const { haproxy: HAPROXY, mqttUrl, browserReady } = balancerPrerequisites('load-balancer-console');

const FILES = 6;
/** The session's events: started, ready, each file's queued/downloading/completed, finalizing, completed. */
const TOTAL_EVENTS = 2 + 3 * FILES + 2;
const ENTITY = `lbc_${randomBytes(3).toString('hex')}`;
const ACCOUNT = { name: `lbc_admin_${randomBytes(2).toString('hex')}`, password: 'password-1' };

let instances: Instance[];
let closeInstances: () => Promise<void>;
let lb: Balancer;
let api: TestServer['request'];
let device: TestDevice;

beforeAll(async () => {
  if (!browserReady) return;
  ({ instances, close: closeInstances } = await startInstances(2));
  lb = await startBalancer(HAPROXY, instances);
  api = requester(lb.url);
  const token = (await signIn({ request: api }, ADMIN.name, ADMIN.password)).access_token;
  await api('POST', '/api/v1/tenant', { token, body: { document: { name: { name: ENTITY, description: '' } } } });
  await createAccount({ request: api }, token, { name: ACCOUNT.name, entity: ENTITY, subtype: 'admin' });
  await uploadEntityFiles(lb.url, token, ENTITY, FILES);
  const name = randomBytes(6).toString('hex');
  device = await connectDevice({ mqttUrl }, ENTITY, await registerDevice({ request: api }, token, ENTITY, name));
}, 120_000);
afterAll(async () => {
  await device?.close();
  await lb?.close();
  await closeInstances?.();
});

/** The console's colour scheme as its manager sets it (apps/web/src/app/color-scheme.ts), without a reload. */
const scheme = (page: Page, to: 'light' | 'dark') =>
  page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', '${to}')`);

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });

describe.skipIf(!browserReady)('the console through HAProxy, the instance serving its event stream killed', () => {
  it('signs in, lists, and follows a provisioning session to its end across the kill', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ baseURL: lb.url, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors: Array<{ text: string; url: string }> = [];
      page.on('console', (m) => m.type() === 'error' && errors.push({ text: m.text(), url: m.location().url }));
      page.on('pageerror', (e) => errors.push({ text: e.message, url: '' }));
      // Which instance served each (re)connection of the modal's stream: the balancer's header.
      const streamPath = `/api/v1/tenant/${ENTITY}/provision/${device.name}/events`;
      const streamsOn: string[] = [];
      page.on('response', (r) => {
        if (new URL(r.url()).pathname === streamPath) streamsOn.push(`${r.status()} ${r.headers()['x-served-by']}`);
      });

      // Sign-in through the form, then the device list.
      await page.goto('/auth/login');
      await page.getByLabel(/^Username/).fill(ACCOUNT.name);
      await page.getByLabel(/^Password/).fill(ACCOUNT.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 15_000 });
      await page.goto('/device');
      await row(page, device.name).waitFor({ timeout: 15_000 });

      // The row's Provision button starts a session; the device hears it and reports numbered events.
      const command = device.nextCommand(15_000);
      await row(page, device.name)
        .getByRole('button', { name: `Provision device ${device.name}` })
        .click();
      const modal = page.getByRole('dialog', { name: 'Provisioning' });
      const { body: cmd } = await command;
      const session = cmd.payload.session_id as string;
      const files = cmd.payload.files.map((f: { device_path: string }) => f.device_path) as string[];
      expect(files).toHaveLength(FILES);
      let n = 0;
      const report = (body: object) =>
        device.publish('events', { type: 'provision', session_id: session, n: ++n, ...body });
      const fileEvents = async (paths: string[]) => {
        for (const device_path of paths)
          for (const status of ['queued', 'downloading', 'completed'])
            await report({ phase: 'file', device_path, status });
      };
      const done = modal.getByRole('status');
      await report({ phase: 'ready' });
      await fileEvents(files.slice(0, 2));
      await done.getByText(`2 of ${FILES} files`).waitFor({ timeout: 15_000 });
      await modal.getByRole('button', { name: 'Log (8)' }).waitFor();
      await page.waitForTimeout(600); // the modal's 500 ms transition settles before the picture
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/load-balancer-console-before-kill.png` });

      // Kill the instance the stream is on; the device goes on while the stream is away.
      expect(streamsOn).toHaveLength(1);
      const victimName = streamsOn[0]!.split(' ')[1]!;
      const victim = instances.find((i) => i.name === victimName)!;
      expect(victim, `the stream's instance: ${streamsOn[0]}`).toBeDefined();
      const killedAt = Date.now();
      victim.child.kill('SIGKILL');
      await victim.exited;
      await until('HAProxy takes the killed instance out', async () => (await lb.states())[victimName] === 'DOWN');
      await fileEvents(files.slice(2, 4));
      await until('the modal opens its stream again', () => streamsOn.length === 2, 15_000);
      const resumedAfterMs = Date.now() - killedAt;
      expect(streamsOn[1]).toMatch(/^200 api\d$/);
      expect(streamsOn[1]).not.toBe(`200 ${victimName}`);
      await fileEvents(files.slice(4));
      await report({ phase: 'finalizing' });
      await report({ phase: 'completed' });

      // The end, with every file complete and every event shown once (none missed, none repeated).
      await done.getByText('Success', { exact: true }).waitFor({ timeout: 15_000 });
      await done.getByText(`${FILES} of ${FILES} files`).waitFor();
      expect(await modal.getByText('completed', { exact: true }).count()).toBe(FILES);
      expect(await modal.getByLabel('Completed files').textContent()).toBe(String(FILES));
      // A stream resumed without its last event id would replay the session: more lines than events.
      const logButton = modal.getByRole('button', { name: /^Log \(/ });
      expect(await logButton.textContent()).toBe(`Log (${TOTAL_EVENTS})`);
      await logButton.click();
      await modal.getByText(/^f5\.bin: completed$/).waitFor();
      const log = await modal.getByText(/^(The device is ready|f\d\.bin: \w+|Finalizing)$/).allTextContents();
      expect(new Set(log).size).toBe(log.length);
      expect(log).toHaveLength(TOTAL_EVENTS - 2);
      await page.waitForTimeout(600); // the log's collapse settles
      await page.screenshot({ path: `${SHOTS}/load-balancer-console-after-kill.png` });
      await scheme(page, 'dark');
      await page.screenshot({ path: `${SHOTS}/load-balancer-console-after-kill-dark.png` });
      await scheme(page, 'light');

      // The list still loads, from the instance left.
      await modal.getByRole('button', { name: 'Close' }).last().click();
      await page.reload();
      await row(page, device.name).waitFor({ timeout: 15_000 });
      await row(page, device.name)
        .getByRole('button', { name: `Provision device ${device.name}` })
        .waitFor();

      // No console error but the event streams' connections cut by the kill (the modal's, and the
      // console's alerts stream when it was on that instance too).
      const cut = (e: { text: string; url: string }) =>
        e.text.endsWith('net::ERR_INCOMPLETE_CHUNKED_ENCODING') && /\/events$/.test(new URL(e.url).pathname);
      const unexpected = errors.filter((e) => !(e.url && cut(e)));
      expect(unexpected).toEqual([]);
      console.log(
        `[load-balancer-console] killed ${victimName} under the modal's stream; it resumed on ` +
          `${streamsOn[1]!.split(' ')[1]} after ${resumedAfterMs} ms; ${log.length + 2} of ${TOTAL_EVENTS} events ` +
          `shown once each; console errors: ${JSON.stringify(errors.map((e) => e.text))}`,
      );
    } finally {
      await browser.close();
    }
  }, 60_000);
});
