import { useCallback, useMemo, useState } from 'react';
import { BEACON_ACTIVE_MS } from '@fleet/shared/beacon-constants';
import type { BeaconEvent } from '@fleet/shared/schemas/beacon';
import { useClock } from '@/lib/use-now.ts';

/** The latest detection of each beacon heard within the last 5 minutes (fleet §4). */
export function useActiveBeacons(history: BeaconEvent[] | undefined) {
  const [live, setLive] = useState<Map<string, BeaconEvent>>(new Map());
  const [now, tick] = useClock(10_000);

  const detected = useCallback(
    (event: BeaconEvent) => {
      if (event.event_type !== 'beacon_detected') return;
      setLive((map) => new Map(map).set(event.beacon_mac, event));
      tick();
    },
    [tick],
  );

  const active = useMemo(() => {
    const latest = new Map<string, BeaconEvent>();
    // History first, then live events: the newer detection of a beacon wins.
    for (const e of [...(history ?? [])].reverse()) if (e.event_type === 'beacon_detected') latest.set(e.beacon_mac, e);
    for (const [mac, e] of live) {
      const known = latest.get(mac);
      if (!known || known.timestamp < e.timestamp) latest.set(mac, e);
    }
    return [...latest.values()]
      .filter((e) => now - new Date(e.timestamp).getTime() < BEACON_ACTIVE_MS)
      .sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1));
  }, [history, live, now]);

  return { active, detected };
}
