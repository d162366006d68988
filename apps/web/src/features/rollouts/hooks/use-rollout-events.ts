import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { openSessionStream } from '@/lib/api/session-stream.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { rolloutKeys } from '../api/rollouts-api.ts';

/** Events closer together than this are read once: a busy stage changes many times a second. */
const COALESCE_MS = 250;
const EventSchema = z.object({ id: z.string() });

/**
 * Keeps the open rollout screens live: the entity's `rollouts/events` stream (relayed by every
 * instance) names each rollout that changed, and the list and that rollout's page and devices
 * read again, at most once per COALESCE_MS.
 */
export function useRolloutEvents(): void {
  const entity = useActiveEntity();
  const client = useQueryClient();
  useEffect(() => {
    if (!entity) return;
    const changed = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      void client.invalidateQueries({ queryKey: rolloutKeys.list() });
      for (const id of changed) {
        void client.invalidateQueries({ queryKey: rolloutKeys.one(id) });
        void client.invalidateQueries({ queryKey: [...rolloutKeys.all, 'devices', id] });
      }
      changed.clear();
    };
    const stream = openSessionStream(`tenant/${encodeURIComponent(entity)}/rollouts/events`, {
      onEvent: (e) => {
        if (e.event !== 'rollout') return;
        const parsed = EventSchema.safeParse(JSON.parse(e.data));
        if (!parsed.success) return;
        changed.add(parsed.data.id);
        timer ??= setTimeout(flush, COALESCE_MS);
      },
      onFailure: () => {},
      isFinal: () => false,
    });
    return () => {
      stream.close();
      clearTimeout(timer);
    };
  }, [entity, client]);
}
