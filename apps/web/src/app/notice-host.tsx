import { lazy, Suspense, useSyncExternalStore } from 'react';
import { noticeHost } from '@/lib/notify.ts';
import classes from './notice-host.module.css';

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/**
 * Renders Mantine's notices once any notice is needed (lib/notify.ts), bottom-left: on a wide
 * screen over the navigation's empty foot, clear of the header's entity button and user menu, of
 * page actions and of a form's Save (bottom-right); on a phone across the bottom, clear of a
 * modal's title (docs/decisions/2026-11-25-notice-placement.md).
 */
export function NoticeHost() {
  const needed = useSyncExternalStore(noticeHost.subscribe, noticeHost.isNeeded);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="bottom-left" zIndex={1000} className={classes.notices} />
    </Suspense>
  );
}
