import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Marks the main region with the key of the location whose screen React has committed
 * (`data-rendered`). Rendered beside the screen inside its Suspense boundary, so the mark moves
 * only once the new screen itself is on the page, not while a lazy screen is still loading.
 * Nothing in the console reads it: end-to-end tests that navigate inside the console wait for it
 * before they judge a screen.
 */
export function RouteRendered() {
  const { key } = useLocation();
  useEffect(() => {
    document.querySelector('main')?.setAttribute('data-rendered', key);
  }, [key]);
  return null;
}
