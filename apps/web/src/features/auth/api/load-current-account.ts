import { ApiError } from '@/lib/api/api-error.ts';
import { pageIsLeaving } from '@/lib/navigation/page-leaving.ts';
import { notifyError } from '@/lib/notify.ts';
import { session } from '@/lib/session/session.ts';
import { getCurrentAccount } from './get-current-account.ts';

export const LOAD_ACCOUNT_ERROR = 'Error loading user data';

/**
 * Loads the signed-in account into the session. On failure shows 'Error loading user data'
 * and signs out (core §8), then throws an ApiError marked as already notified.
 */
export async function loadCurrentAccount(): Promise<void> {
  const current = session.getSnapshot();
  if (current.status !== 'signed-in') return;
  try {
    const account = await getCurrentAccount(current.username, current.entity);
    // Another tab may have switched users meanwhile; never attach this account to them.
    const now = session.getSnapshot();
    if (now.status === 'signed-in' && now.username === current.username && now.entity === current.entity) {
      session.setAccount(account);
    }
  } catch (cause) {
    // An authentication failure has already signed out and said so; don't add a second notice.
    // A load cancelled by a reload is no failure: signing out would clear the session the
    // reloaded page is about to restore.
    if (session.getSnapshot().status === 'signed-in' && !pageIsLeaving()) {
      notifyError(LOAD_ACCOUNT_ERROR);
      session.signOut('load-failed');
    }
    throw new ApiError({
      status: cause instanceof ApiError ? cause.status : 0,
      userMessage: LOAD_ACCOUNT_ERROR,
      notified: true,
      cause,
    });
  }
}
