import { lazy, Suspense, useSyncExternalStore } from 'react';
import { noticeHost } from '@/lib/notify.ts';
import classes from './notice-host.module.css';

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/** Renders Mantine's notices (top-right) once any notice is needed; see lib/notify.ts. */
export function NoticeHost() {
  const needed = useSyncExternalStore(noticeHost.subscribe, noticeHost.isNeeded);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" zIndex={1000} className={classes.notices} />
    </Suspense>
  );
}
