import type { CommandType } from '@fleet/shared/protocol';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import type { BulkCommandAnswer, CommandAnswer } from '@fleet/shared/schemas/command';
import { ApiError } from '@/lib/api/api-error.ts';
import { failureText } from '../../../lib/api/failure-text.ts';

/** The spec's warning when a Multi-Device Action has nothing ticked (core §8). */
export const NO_DEVICES_SELECTED = 'No devices selected';

/** A notice to show: green, amber or red; an error's title says what failed, its message why. */
export interface Notice {
  tone: 'success' | 'warning' | 'error';
  title?: string;
  message: string;
}

/** The red notice title of every command failure (fleet §8: "the command failed to send"). */
export const failedToSend = (action: CommandType) => `${COMMAND_LABELS[action]} failed to send`;

/**
 * The notice for a command's answer: 200 says the device carried it out; 202 (`queued`) says it
 * sleeps and the command is held, shown as a warning with the server's text.
 */
export function commandAnswerNotice(
  action: CommandType,
  device: string,
  answer: Pick<CommandAnswer, 'status' | 'userMessage' | 'report'>,
): Notice {
  const label = COMMAND_LABELS[action];
  const report = answer.status === 'success' ? reportText(answer.report) : '';
  if (report) return { tone: 'success', message: `${device} answered the refresh: ${report}` };
  if (answer.status === 'queued')
    return { tone: 'warning', message: answer.userMessage || `${label} held until ${device} wakes` };
  if (answer.status === 'started')
    return { tone: 'success', message: answer.userMessage || `${label} started on ${device}` };
  return { tone: 'success', message: `${label} sent to ${device}` };
}

/** A refresh reply in words, e.g. 'state WAITING · firmware 3.2.0 · battery 57%, charging'; '' when empty. */
export function reportText(report: CommandAnswer['report']): string {
  if (!report) return '';
  const parts: string[] = [];
  if (report.state !== undefined) parts.push(`state ${report.state}`);
  if (report.fw_version !== undefined) parts.push(`firmware ${report.fw_version}`);
  if (report.battery !== undefined) parts.push(`battery ${report.battery}%${report.is_charging ? ', charging' : ''}`);
  return parts.join(' · ');
}

/**
 * Why a command failed, in one line: the device's own error text (502), that it did not answer
 * in time (504), or the server's message for anything else (404, 403, 400, network).
 */
export function commandErrorText(error: unknown): string {
  if (!(error instanceof ApiError)) return failureText(error);
  if (error.status === 502) return error.developerMessage || error.userMessage;
  if (error.status === 504) return error.userMessage || error.developerMessage || 'The device did not reply in time';
  return failureText(error);
}

/**
 * The red notice for a failed command: '{Command} failed to send' over the device and the error
 * text. Null when the API client already told the user (a failed sign-in renewal).
 */
export function commandFailureNotice(action: CommandType, device: string, error: unknown): Notice | null {
  if (error instanceof ApiError && error.notified) return null;
  const text = commandErrorText(error);
  // The server's texts often name the device already ('Device … did not answer in time').
  return { tone: 'error', title: failedToSend(action), message: text.includes(device) ? text : `${device}: ${text}` };
}

const devices = (n: number) => `${n} device${n === 1 ? '' : 's'}`;

/** What a Multi-Device Action left out, e.g. ' 2 unresponsive devices skipped.'; '' when nothing. */
export function skippedText(unresponsive: number, unlisted = 0): string {
  const parts: string[] = [];
  if (unresponsive > 0) parts.push(`${devices(unresponsive)} skipped as unresponsive`);
  if (unlisted > 0) parts.push(`${devices(unlisted)} skipped: not on a loaded page`);
  return parts.length > 0 ? ` ${parts.join('; ')}.` : '';
}

/** The warning when no selected device can be sent to: all unresponsive (or not loaded). */
export function nothingSendableText(action: CommandType, unresponsive: number, unlisted = 0): string {
  const label = COMMAND_LABELS[action];
  if (unlisted > 0) return `${label} not sent.${skippedText(unresponsive, unlisted)}`;
  return unresponsive === 1
    ? `${label} not sent: the selected device is unresponsive`
    : `${label} not sent: all ${unresponsive} selected devices are unresponsive`;
}

/**
 * The notice for a bulk or entity-wide answer: `success` green, `partial` amber, `failed` red;
 * each shows the server's text, a failure also the first device's error, plus what was skipped.
 */
export function bulkAnswerNotice(action: CommandType, answer: BulkCommandAnswer, skipped = ''): Notice {
  const text = skipped ? sentence(answer.userMessage) + skipped : answer.userMessage;
  if (answer.status === 'success') return { tone: 'success', message: text };
  if (answer.status === 'partial') return { tone: 'warning', message: text };
  const first = answer.data.results.find((r) => r.error);
  const why = first?.error ? ` ${first.device}: ${first.error}` : '';
  return {
    tone: 'error',
    title: failedToSend(action),
    message: `${sentence(answer.userMessage)}${why}${skipped}`.trim(),
  };
}

/** The text ending in a full stop, so more can follow it. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) || text.trim() === '' ? text.trim() : `${text.trim()}.`);
