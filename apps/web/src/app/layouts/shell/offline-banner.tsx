import { Group, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useOnline } from '@/lib/use-online.ts';
import classes from './offline-banner.module.css';

/**
 * Says the browser is offline, for as long as it is. Nothing is queued meanwhile: actions and
 * saves fail at once with 'Network error', reads wait and run when the connection returns
 * (query-defaults.ts). The live region is always there so that a screen reader hears the change.
 */
export function OfflineBanner() {
  const online = useOnline();
  return (
    <div role="status" aria-live="polite" className={classes.region}>
      {!online && (
        <Group gap="sm" wrap="nowrap" className={classes.banner} data-tone="yellow">
          <IconWifiOff size={20} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" c="inherit">
            <Text span fw={700} c="inherit">
              You are offline.
            </Text>{' '}
            Actions and saves fail until the connection returns; this screen updates when it does.
          </Text>
        </Group>
      )}
    </div>
  );
}
