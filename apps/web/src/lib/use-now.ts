import { useEffect, useState } from 'react';

/**
 * The current time, updated every `everyMs`: relative times ('3 minutes ago') and the
 * 20-minute unresponsive rule move on between list refreshes.
 */
export function useNow(everyMs = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
