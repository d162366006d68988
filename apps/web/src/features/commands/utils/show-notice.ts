import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import type { Notice } from './command-notices.ts';

/** Shows a notice worded by the command-notice rules with the app's notify helpers. */
export function showNotice(notice: Notice): void {
  if (notice.tone === 'success') notifySuccess(notice.message);
  else if (notice.tone === 'warning') notifyWarning(notice.message);
  else notifyError(notice.title ?? notice.message, notice.title ? notice.message : undefined);
}
