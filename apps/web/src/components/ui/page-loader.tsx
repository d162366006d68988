import { Center, Loader } from '@mantine/core';
import { useOnline } from '@/lib/use-online.ts';
import { OfflineWait } from './offline-wait.tsx';

/**
 * Centred spinner for lazy screens and the initial session check. Offline, a read waits for the
 * connection (query-defaults.ts), so the screen says that instead of spinning.
 */
export function PageLoader({ fullPage = false }: { fullPage?: boolean }) {
  const online = useOnline();
  return (
    <Center mih={fullPage ? '100dvh' : 240} role="status" aria-label={online ? 'Loading' : undefined}>
      {online ? <Loader size="md" type="dots" /> : <OfflineWait />}
    </Center>
  );
}
