import type { BulkCommandAnswer } from '@fleet/shared/schemas/command';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/api-error.ts';
import {
  NO_DEVICES_SELECTED,
  bulkAnswerNotice,
  commandAnswerNotice,
  commandFailureNotice,
  nothingSendableText,
  skippedText,
} from './command-notices.ts';

const ID = '240ac40a2e48';
const HELD = 'The device is asleep: the command is held until it wakes (at most 1 hour).';

describe('commandAnswerNotice', () => {
  it('says a 200 command was sent to the device, in green', () => {
    expect(commandAnswerNotice('vibrate', ID, { status: 'success' })).toEqual({
      tone: 'success',
      message: `Vibrate sent to ${ID}`,
    });
    expect(commandAnswerNotice('refresh', ID, { status: 'success' }).message).toBe(`Refresh sent to ${ID}`);
  });

  it('shows what the device answered a refresh: state, firmware and battery', () => {
    const report = { state: 'WAITING', fw_version: '3.2.0', battery: 57, is_charging: true };
    expect(commandAnswerNotice('refresh', ID, { status: 'success', report })).toEqual({
      tone: 'success',
      message: `${ID} answered the refresh: state WAITING · firmware 3.2.0 · battery 57%, charging`,
    });
    expect(commandAnswerNotice('refresh', ID, { status: 'success', report: { battery: 12 } }).message).toBe(
      `${ID} answered the refresh: battery 12%`,
    );
  });

  it("shows a 202 (held for a sleeping device) as a warning with the server's text", () => {
    expect(commandAnswerNotice('reboot', ID, { status: 'queued', userMessage: HELD })).toEqual({
      tone: 'warning',
      message: HELD,
    });
    expect(commandAnswerNotice('reboot', ID, { status: 'queued' })).toEqual({
      tone: 'warning',
      message: `Reboot held until ${ID} wakes`,
    });
  });
});

describe('commandFailureNotice', () => {
  const error = (status: number, userMessage: string, developerMessage: string) =>
    new ApiError({ status, userMessage, developerMessage });

  it("says a 502 failed to send, with the device's own error text", () => {
    const notice = commandFailureNotice(
      'reboot',
      ID,
      error(502, 'The device answered with an error', 'battery too low'),
    );
    expect(notice).toEqual({ tone: 'error', title: 'Reboot failed to send', message: `${ID}: battery too low` });
  });

  it('says a 504 failed to send because the device did not answer in time', () => {
    const notice = commandFailureNotice(
      'vibrate',
      ID,
      error(504, 'The device did not answer in time', 'no reply in 10 s'),
    );
    expect(notice).toEqual({
      tone: 'error',
      title: 'Vibrate failed to send',
      message: `${ID}: The device did not answer in time`,
    });
  });

  it('names the device once when the server text already does', () => {
    const notice = commandFailureNotice('refresh', ID, error(504, `Device ${ID} did not answer in time`, 'No reply'));
    expect(notice?.message).toBe(`Device ${ID} did not answer in time`);
  });

  it("words other failures the same way with the server's message", () => {
    expect(commandFailureNotice('refresh', ID, error(404, 'Device not found', ''))).toEqual({
      tone: 'error',
      title: 'Refresh failed to send',
      message: `${ID}: Device not found`,
    });
    expect(
      commandFailureNotice('refresh', ID, new ApiError({ status: 0, userMessage: 'Network error' }))?.message,
    ).toBe(`${ID}: Network error`);
  });

  it('stays quiet when the API client already told the user (failed sign-in renewal)', () => {
    expect(commandFailureNotice('refresh', ID, new ApiError({ status: 401, userMessage: 'x', notified: true }))).toBe(
      null,
    );
  });
});

const answer = (status: BulkCommandAnswer['status'], userMessage: string, error: string | null = null) =>
  ({
    status,
    userMessage,
    data: {
      counts: { succeeded: 1, failed: 1, timed_out: 0, queued: 0, sent: 0 },
      results: [
        { device: 'aaaa00000001', state: 'succeeded', error: null },
        { device: 'aaaa00000002', state: 'failed', error },
      ],
    },
  }) satisfies BulkCommandAnswer;

describe('bulkAnswerNotice', () => {
  it('shows success green, partial amber and failed red, each with the server text', () => {
    expect(bulkAnswerNotice('refresh', answer('success', '2 devices refreshed.'))).toEqual({
      tone: 'success',
      message: '2 devices refreshed.',
    });
    expect(bulkAnswerNotice('vibrate', answer('partial', '1 of 2 succeeded.'))).toEqual({
      tone: 'warning',
      message: '1 of 2 succeeded.',
    });
    expect(bulkAnswerNotice('reboot', answer('failed', 'No device succeeded.', 'busy'))).toEqual({
      tone: 'error',
      title: 'Reboot failed to send',
      message: 'No device succeeded. aaaa00000002: busy',
    });
    expect(bulkAnswerNotice('reboot', answer('failed', 'Reboot to 2 devices: 0 succeeded', 'busy'))).toMatchObject({
      message: 'Reboot to 2 devices: 0 succeeded. aaaa00000002: busy',
    });
  });

  it('says how many selected devices were skipped as unresponsive', () => {
    expect(skippedText(0)).toBe('');
    expect(skippedText(1)).toBe(' 1 device skipped as unresponsive.');
    expect(skippedText(3)).toBe(' 3 devices skipped as unresponsive.');
    expect(bulkAnswerNotice('refresh', answer('success', '2 devices refreshed.'), skippedText(2)).message).toBe(
      '2 devices refreshed. 2 devices skipped as unresponsive.',
    );
    // The server's text may end without a full stop.
    expect(bulkAnswerNotice('vibrate', answer('success', 'Vibrate to 2 devices: 2 succeeded'), skippedText(1))).toEqual(
      {
        tone: 'success',
        message: 'Vibrate to 2 devices: 2 succeeded. 1 device skipped as unresponsive.',
      },
    );
  });
});

describe('nothing to send', () => {
  it("warns with the spec's text when nothing is selected", () => {
    expect(NO_DEVICES_SELECTED).toBe('No devices selected');
  });

  it('warns when every selected device is unresponsive', () => {
    expect(nothingSendableText('vibrate', 1)).toBe('Vibrate not sent: the selected device is unresponsive');
    expect(nothingSendableText('reboot', 4)).toBe('Reboot not sent: all 4 selected devices are unresponsive');
  });
});
