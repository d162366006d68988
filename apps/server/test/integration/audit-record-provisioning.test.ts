import { describe, expect, it } from 'vitest';
import { entriesOf as entriesOfAll } from '../helpers/audit.ts';
import { eventually } from '../helpers/devices.ts';
import {
  ACME,
  GLOBEX,
  TIMEOUT_MS,
  begin,
  device,
  path,
  play,
  s,
  start,
  t,
  useProvisioningWorld,
} from '../helpers/provisioning-world.ts';

// Issue 26: provisioning start, cancel and end recorded in the session's transaction: the end
// with its result (success, partial, failed, timeout), a refused start with its reason, never a
// file's signed link, and none of it visible to another entity. On the worker's shared server:
// the entries read are its own entity's.
useProvisioningWorld({ shared: true });

const entriesOf = (srv: typeof s, action: string) => entriesOfAll(srv, action, { entities: [ACME] });

const ofDevice = async (action: string, name: string) =>
  (await entriesOf(s, action)).filter((e) => e.target_name === name);
const ended = (name: string) =>
  eventually(async () => {
    const [end] = await ofDevice('provision.end', name);
    expect(end).toBeDefined();
    return end;
  }, TIMEOUT_MS * 4);

describe('provisioning in the audit log', () => {
  it('records the start (files by name) by the account and a success by the device', async () => {
    const d = await device();
    const { session, files } = await begin(d);
    const [started] = await ofDevice('provision.start', d.name);
    expect(started).toMatchObject({
      entity: ACME,
      actor_kind: 'account',
      target_type: 'device',
      outcome: 'success',
      details: { session_id: session, count: files.length },
    });
    expect(started.details.names).toContain('bell.wav');
    await play(d, session, files);
    expect(await ended(d.name)).toMatchObject({
      actor_kind: 'device',
      actor_name: d.name,
      outcome: 'success',
      details: { session_id: session, result: 'success', failed_files: 0 },
    });
    const text = JSON.stringify(await entriesOf(s, 'provision.start'));
    for (const f of files) expect(text).not.toContain(f.url);
  });

  it('records a partial end as a failure with the reason', async () => {
    const d = await device();
    const { session, files } = await begin(d);
    await play(d, session, files, [files[0].device_path]);
    const end = await ended(d.name);
    expect(end).toMatchObject({ outcome: 'failure', details: { result: 'partial', failed_files: 1 } });
    expect(end.reason).toBeTruthy();
  });

  it('records a cancel by the account (once), a refused start and cancel with their reasons, and a timeout by the system', async () => {
    const d = await device();
    await begin(d);
    expect((await start(d)).status).toBe(409);
    expect((await s.request('POST', path(d, '/cancel'), { token: t.operator })).status).toBe(200);
    expect((await s.request('POST', path(d, '/cancel'), { token: t.operator })).status).toBe(409);
    const starts = await ofDevice('provision.start', d.name);
    expect(starts.map((e) => e.outcome)).toEqual(['success', 'failure']);
    expect(starts[1].reason).toBe('Cancel the running session first');
    const cancels = await ofDevice('provision.cancel', d.name);
    expect(cancels.map((e) => [e.actor_kind, e.outcome])).toEqual([
      ['account', 'success'],
      ['account', 'failure'],
    ]);
    expect(cancels[0].details).toMatchObject({ result: 'cancelled' });
    expect(await ofDevice('provision.end', d.name)).toEqual([]);

    const quiet = await device();
    await begin(quiet);
    expect(await ended(quiet.name)).toMatchObject({
      actor_kind: 'system',
      outcome: 'failure',
      details: { result: 'timeout' },
    });
  });

  it("shows none of them to another entity's admin", async () => {
    for (const q of ['action=provision.start', 'action=provision.end', 'search=provision']) {
      const theirs = await s.request('GET', `/api/v1/tenant/${GLOBEX}/audit?${q}`, { token: t.other });
      expect(theirs.body).toEqual({ data: [], total: 0, total_is_lower_bound: false });
    }
    const mine = await s.request('GET', `/api/v1/tenant/${ACME}/audit?action=provision.end`, { token: t.admin });
    expect(mine.body.total).toBeGreaterThanOrEqual(3);
  });
});
