import { useCallback, useEffect, useState } from 'react';

/**
 * The current time, updated every `everyMs`, and a function that reads the clock at once: relative
 * times ('3 minutes ago'), the 20-minute unresponsive rule and the 5-minute active beacons move on
 * between refreshes. The console's one clock hook.
 */
export function useClock(everyMs = 10_000): [now: number, tick: () => void] {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  const tick = useCallback(() => setNow(Date.now()), []);
  return [now, tick];
}

/** The current time, updated every `everyMs` (see useClock). */
export function useNow(everyMs = 10_000): number {
  return useClock(everyMs)[0];
}
