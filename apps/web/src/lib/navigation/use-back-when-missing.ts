import { useEffect } from 'react';
import { ApiError } from '../api/api-error.ts';
import { useGoBack } from './use-go-back.ts';

/** True when a load failed because the thing named in the URL does not exist. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * Sends the user back (or to `fallback` without history) when the route's name is missing or
 * unknown (core §2, §8: "Unknown route parameters send the user back").
 */
export function useBackWhenMissing(missing: boolean, fallback: string): void {
  const goBack = useGoBack(fallback);
  useEffect(() => {
    if (missing) goBack();
  }, [missing, goBack]);
}
