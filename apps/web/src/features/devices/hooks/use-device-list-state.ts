import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { readListState, writeListState, type DeviceListState } from '../utils/list-query.ts';

type Update = (current: DeviceListState) => DeviceListState;

/**
 * The device list's page, sort and filters, kept in the URL's search params so a reload, a
 * shared link or coming back from a device keeps them. Changes replace the history entry:
 * Back leaves the list instead of stepping through every filter change.
 *
 * Changes are updates of the latest state, not of the rendered one: the router renders a
 * navigation as a transition, so a second change (another filter, the page) can come before
 * the first is on screen, and building it from what is shown would drop the first.
 */
export function useDeviceListState(): [DeviceListState, (update: Update) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  }, [state]);
  const setState = useCallback(
    (update: Update) => {
      latest.current = update(latest.current);
      setParams(writeListState(latest.current), { replace: true });
    },
    [setParams],
  );
  return [state, setState];
}
