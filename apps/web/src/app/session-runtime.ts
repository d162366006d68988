import { REFRESH } from '@fleet/shared/constants';
import { loadCurrentAccount } from '@/features/auth/api/load-current-account.ts';
import { AUTH_ERROR } from '@/lib/api/api-error.ts';
import { pageIsLeaving } from '@/lib/navigation/page-leaving.ts';
import { notifyError } from '@/lib/notify.ts';
import { readTokenTimes } from '@/lib/session/jwt.ts';
import { RefreshScheduler } from '@/lib/session/refresh-scheduler.ts';
import { SESSION_KEYS } from '@/lib/session/session-storage.ts';
import { refresher, session } from '@/lib/session/session.ts';

/** Signs out after a failed background refresh, with the spec's notice (core §8). */
function forceSignOut(reason: 'auth-error' | 'expired'): void {
  // A refresh cancelled by a reload is no refusal: the reloaded page restores the session.
  if (session.getSnapshot().status !== 'signed-in' || pageIsLeaving()) return;
  session.signOut(reason);
  notifyError(AUTH_ERROR);
}

const scheduler = new RefreshScheduler({
  getAccessToken: () => session.getSnapshot().accessToken,
  refresh: () => refresher.refresh(),
  onExpired: () => forceSignOut('expired'),
  onGiveUp: () => forceSignOut('auth-error'),
});

let running = false;

function wire(): void {
  session.subscribe((change, snapshot) => {
    if (snapshot.status !== 'signed-in') {
      scheduler.stop();
      running = false;
      return;
    }
    if (change === 'sign-in' || (change === 'adopt' && !running)) {
      scheduler.start();
      running = true;
    } else if (change === 'tokens' || change === 'adopt') {
      scheduler.tokenChanged();
    }
    if (change === 'adopt' && snapshot.account === null) {
      // Another tab signed in as someone else: load the new account.
      loadCurrentAccount().catch(() => undefined);
    }
  });

  // Other tabs write the access token last on sign-in and refresh, and remove it first on
  // sign-out, so its change (or a full clear, key null) means the stored set is consistent.
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_KEYS.accessToken || event.key === null) session.adoptStored();
  });
}

/** Checks the stored session on app start (core §4); never rejects. */
async function restore(): Promise<void> {
  const stored = session.readStored();
  const current = session.getSnapshot();
  if (!stored.accessToken || !stored.entity || current.status !== 'signed-in') {
    session.signOut('invalid');
    return;
  }
  const times = readTokenTimes(current.accessToken);
  if (times === null || times.expiresAt <= Date.now()) {
    // Expired: one refresh may still rescue it; if not, the session is cleared without fuss.
    try {
      await refresher.refresh();
    } catch {
      if (!pageIsLeaving()) session.signOut('expired');
      return;
    }
  }
  // Within the 5-minute expiry buffer the scheduler refreshes at once.
  scheduler.start({ refreshWithinMs: REFRESH.expiryBufferMs });
  running = true;
  await loadCurrentAccount().catch(() => undefined);
}

let ready: (Promise<void> & { status?: 'fulfilled' }) | null = null;

/** Starts session handling once (storage sync, refresh scheduling, account reload). */
export function startSession(): Promise<void> {
  if (ready === null) {
    wire();
    const checked: Promise<void> & { status?: 'fulfilled' } = restore().then(() => {
      // React's use() reads a settled promise's status and renders at once instead of
      // suspending for a tick (which would swap the prerendered sign-in page for a loader).
      checked.status = 'fulfilled';
    });
    ready = checked;
  }
  return ready;
}

/** Resolves once the stored session has been checked on start. */
export function sessionReady(): Promise<void> {
  return startSession();
}
