import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readListState, writeListState, type DeviceListState } from '../utils/list-query.ts';

/**
 * The device list's page, sort and filters, kept in the URL's search params so a reload, a
 * shared link or coming back from a device keeps them. Changes replace the history entry:
 * Back leaves the list instead of stepping through every filter change.
 */
export function useDeviceListState(): [DeviceListState, (next: DeviceListState) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const setState = useCallback(
    (next: DeviceListState) => setParams(writeListState(next), { replace: true }),
    [setParams],
  );
  return [state, setState];
}
