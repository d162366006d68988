import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDevice, later, report } from '../helpers/alerts.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// Issue 29: a rule's alerts e-mailed as ONE message per burst, received by a real SMTP server.
interface Mail {
  to: string[];
  raw: string;
}
const mails: Mail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, done) {
    let raw = '';
    stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    stream.on('end', () => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      done();
    });
  },
});
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  ({
    s,
    root,
    acme: ACME,
    globex: GLOBEX,
  } = await startWithTwoEntities({
    ALERT_SWEEP_S: '0',
    DELIVERY_POLL_MS: '0',
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    SMTP_FROM: 'Fleet <fleet@example.com>',
  }));
});
afterAll(async () => {
  await s?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function mailRule(entity: string, to: string[]) {
  const document = { name: `Mail ${to[0]}`, kind: 'device_error', email_to: to };
  const res = await s.request('POST', `/api/v1/tenant/${entity}/alert-rules`, { token: root, body: { document } });
  expect(res.status).toBe(201);
}

describe('alert e-mail', () => {
  it('sends one e-mail per burst of a rule, to its addresses only, once the burst went quiet', async () => {
    await mailRule(ACME, ['ops@example.com', 'lead@example.com']);
    await mailRule(GLOBEX, ['other@example.com']);
    const devices = [
      await alertDevice(s, root, ACME),
      await alertDevice(s, root, ACME),
      await alertDevice(s, root, ACME),
    ];
    const theirs = await alertDevice(s, root, GLOBEX);
    for (const d of [...devices, theirs]) await report(s, d, { state: 'ERROR' });

    await s.app.delivery.tick(later(30)); // the burst has not been quiet for 60 s yet
    expect(mails).toEqual([]);
    await s.app.delivery.tick(later(61));
    expect(mails).toHaveLength(2);
    const ours = mails.find((m) => m.to.includes('ops@example.com'))!;
    expect(ours.to.sort()).toEqual(['lead@example.com', 'ops@example.com']);
    expect(ours.raw).toMatch(/^From: Fleet <fleet@example\.com>/m);
    expect(ours.raw).toMatch(/^Subject: \[Fleet Console\] Mail ops@example\.com: 3 alerts in /m);
    for (const d of devices) expect(ours.raw).toContain(d.name);
    expect(ours.raw).not.toContain(theirs.name);
    const other = mails.find((m) => m.to.includes('other@example.com'))!;
    expect(other.to).toEqual(['other@example.com']);
    expect(other.raw).toContain(theirs.name);
    for (const d of devices) expect(other.raw).not.toContain(d.name);

    // Sent once: the next pass has nothing to send.
    await s.app.delivery.tick(later(120));
    expect(mails).toHaveLength(2);
    await Promise.all([...devices, theirs].map((d) => d.close()));
  });
});
