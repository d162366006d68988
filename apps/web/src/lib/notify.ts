import { NOTICE_MS } from '@fleet/shared/constants';
import type { NotificationData } from '@mantine/notifications';
import type { Notifier } from './api/notifier.ts';

// The notification renderer and store load on first use, which keeps them off the login
// page's critical path; the host component mounts when `needed` flips.
const load = () => import('@mantine/notifications');
let needed = false;
const hostListeners = new Set<() => void>();

function needHost(): void {
  if (needed) return;
  needed = true;
  for (const listener of hostListeners) listener();
}

/** For the notice host: whether a notice has been asked for (or the shell wants one ready). */
export const noticeHost = {
  isNeeded: () => needed,
  subscribe(listener: () => void): () => void {
    hostListeners.add(listener);
    return () => hostListeners.delete(listener);
  },
  /** Mounts the host ahead of need (the signed-in shell does, so notices appear without delay). */
  prepare: needHost,
};

function show(notice: NotificationData): void {
  needHost();
  load()
    .then(({ notifications }) => notifications.show(notice))
    .catch(() => console.error('Could not show notice:', notice.message));
}

// Identical notices share an id so a burst of failing calls shows one notice, not a stack.
const idFor = (kind: string, title: string, message = '') => `${kind}:${title}|${message}`;

/**
 * Red notice for 4 s (core §8/§9): the user message as title, the developer message below it.
 * When the two say the same ('Account not found' twice), it is said once.
 */
export function notifyError(title: string, message?: string): void {
  if (message?.trim() === title.trim()) message = undefined;
  show({
    id: idFor('error', title, message),
    color: 'red',
    title: message ? title : undefined,
    message: message ?? title,
    autoClose: NOTICE_MS.error,
  });
}

/** Green notice for 2 s (core §9), e.g. notifySuccess('Account saved'). */
export function notifySuccess(text: string): void {
  show({ id: idFor('success', text), color: 'teal', message: text, autoClose: NOTICE_MS.success });
}

/** Amber notice, e.g. a kiosk manager's 202 answer; errors' 4 s so it can be read. */
export function notifyWarning(text: string): void {
  show({ id: idFor('warning', text), color: 'yellow', message: text, autoClose: NOTICE_MS.error });
}

/** The Mantine-backed notifier the app's API client and session use. */
export const notifier: Notifier = { error: notifyError, success: notifySuccess, warning: notifyWarning };
