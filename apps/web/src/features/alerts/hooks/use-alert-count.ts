import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCountsSchema, type AlertCounts } from '@fleet/shared/schemas/alert';
import { openSessionStream } from '@/lib/api/session-stream.ts';
import { alertKeys } from '../api/alerts-api.ts';

/**
 * The active entity's alert counts, live: the `alerts/events` stream sends them now and after
 * every change on any instance; open alert lists re-read when they change. Null until known, and
 * while no entity is open.
 */
export function useAlertCount(entity: string | null): AlertCounts | null {
  // Tagged with their entity: figures of the entity before a switch are never shown for the next.
  const [counts, setCounts] = useState<{ entity: string; counts: AlertCounts } | null>(null);
  const client = useQueryClient();
  useEffect(() => {
    if (!entity) return;
    const stream = openSessionStream(`tenant/${encodeURIComponent(entity)}/alerts/events`, {
      onEvent: (e) => {
        if (e.event !== 'count') return;
        const parsed = AlertCountsSchema.safeParse(JSON.parse(e.data));
        if (!parsed.success) return;
        setCounts({ entity, counts: parsed.data });
        void client.invalidateQueries({ queryKey: alertKeys.all });
      },
      onFailure: () => setCounts(null),
      isFinal: () => false,
    });
    return () => stream.close();
  }, [entity, client]);
  return counts && counts.entity === entity ? counts.counts : null;
}
