import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/api-error.ts';
import { session } from '@/lib/session/session.ts';
import { makeAccessToken } from '@/lib/session/test-tokens.ts';
import { aCommand } from '@/lib/device/test-fixtures.ts';
import { commandPayload } from '../utils/command-actions.ts';
import { commandAnswerNotice, commandFailureNotice } from '../utils/command-notices.ts';
import { sendBulkCommand, sendEntityCommand } from './send-bulk-command.ts';
import { sendCommand } from './send-command.ts';

// The real API client over a recorded network: what goes on the wire, and how answers read.
const ID = '240ac40a2e48';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const errorInfo = (code: number, userMessage: string, developerMessage: string) =>
  json(code, { errorInfo: { code, userMessage, developerMessage } });

const COMMAND = aCommand({ device: ID });

function network(answer: Response) {
  const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answer);
  vi.stubGlobal('fetch', fetch);
  return () => {
    const [url, init] = fetch.mock.calls[0] ?? [];
    return { url: String(url), method: init?.method, body: JSON.parse(String(init?.body)) as unknown };
  };
}

beforeAll(() => {
  session.signIn({
    accessToken: makeAccessToken(Date.now(), 600_000, { subtype: 'operator' }),
    refreshToken: 'r',
    username: 'alice',
    entity: 'acme',
  });
});
afterEach(() => void vi.unstubAllGlobals());

describe('sendCommand', () => {
  it("posts {payload} to the device's entity, whoever is signed in", async () => {
    const sent = network(json(200, { status: 'success', data: COMMAND }));
    const answer = await sendCommand('beta', ID, commandPayload('vibrate'));
    expect(sent()).toEqual({
      url: `/api/v1/tenant/beta/mqtt/general/${ID}`,
      method: 'POST',
      body: { payload: { type: 'vibrate', song: 'V10' } },
    });
    expect(commandAnswerNotice('vibrate', ID, answer)).toEqual({ tone: 'success', message: `Vibrate sent to ${ID}` });
  });

  it('reads a 202 as held, for a warning with the server text', async () => {
    const held = 'The device is asleep; the command waits until it wakes.';
    network(json(202, { status: 'queued', userMessage: held, data: { ...COMMAND, state: 'queued', sent_at: null } }));
    const answer = await sendCommand('acme', ID, commandPayload('reboot'));
    expect(answer.data.state).toBe('queued');
    expect(commandAnswerNotice('reboot', ID, answer)).toEqual({ tone: 'warning', message: held });
  });

  it("turns a 502 into '{Command} failed to send' with the device's error text, and notifies nothing itself", async () => {
    network(errorInfo(502, 'The device reported an error', 'battery too low'));
    const error = await sendCommand('acme', ID, commandPayload('reboot')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).notified).toBe(false);
    expect(commandFailureNotice('reboot', ID, error)).toEqual({
      tone: 'error',
      title: 'Reboot failed to send',
      message: `${ID}: battery too low`,
    });
  });

  it("turns a 504 into '{Command} failed to send' saying it did not answer", async () => {
    network(errorInfo(504, 'The device did not answer in time', 'no reply within 10000 ms'));
    const error = await sendCommand('acme', ID, commandPayload('refresh')).catch((e: unknown) => e);
    expect(commandFailureNotice('refresh', ID, error)).toEqual({
      tone: 'error',
      title: 'Refresh failed to send',
      message: `${ID}: The device did not answer in time`,
    });
  });
});

describe('bulk and entity-wide commands', () => {
  const bulk = {
    status: 'success',
    userMessage: '2 devices refreshed.',
    data: {
      counts: { succeeded: 2, failed: 0, timed_out: 0, queued: 0, sent: 0 },
      results: [],
    },
  };

  it('posts {devices, payload} to mqtt/general/devices', async () => {
    const sent = network(json(200, bulk));
    await sendBulkCommand('acme', [ID, 'aaaa00000001'], commandPayload('refresh'));
    expect(sent()).toEqual({
      url: '/api/v1/tenant/acme/mqtt/general/devices',
      method: 'POST',
      body: { devices: [ID, 'aaaa00000001'], payload: { type: 'refresh' } },
    });
  });

  it('posts the V101 vibrate to mqtt/general/entity, asking for the answer at once', async () => {
    const started = {
      status: 'running',
      userMessage: 'Vibrate sent to 2 devices: 0 answered, 2 waiting for a reply',
      data: {
        id: '0b7c8e1a-4d2f-4e6b-9c3a-5f1e2d3c4b5a',
        type: 'vibrate',
        total: 2,
        counts: { succeeded: 0, failed: 0, timed_out: 0, queued: 0, sent: 2, expired: 0 },
      },
    };
    const sent = network(json(202, started));
    expect(await sendEntityCommand('acme', commandPayload('vibrate', 'entity'))).toEqual(started);
    expect(sent()).toEqual({
      url: '/api/v1/tenant/acme/mqtt/general/entity?wait=false',
      method: 'POST',
      body: { payload: { type: 'vibrate', song: 'V101' } },
    });
  });
});
