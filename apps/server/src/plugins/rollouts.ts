import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Deps } from '../domain/deps.ts';
import { RolloutEngine } from '../domain/rollout/rollout-engine.ts';
import { RolloutStreams } from '../domain/rollout/rollout-streams.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rollout engine and event streams of this instance (routes/rollout reads them). */
    rollouts: { engine: RolloutEngine; streams: RolloutStreams };
  }
}

/** Rollouts: the engine steps from here on; it stops, and the streams end, before the database closes. */
export const rolloutsPlugin = fp(
  async (app: FastifyInstance, { deps }: { deps: Deps }) => {
    const engine = new RolloutEngine(
      deps,
      (err, what) => app.log.error({ err }, `rollouts: ${what} failed`),
      // A file-set rollout's step: the device's session, started as its creator.
      (p) => app.provisioning.service.start({ sub: p.actor } as AccessClaims, p.entity, p.device, p.base),
    );
    const streams = new RolloutStreams(deps.bus);
    app.addHook('preClose', async () => {
      streams.closeAll();
      await engine.stop();
    });
    app.decorate('rollouts', { engine, streams });
    engine.start();
  },
  { name: 'rollouts', dependencies: ['devices', 'provisioning'] },
);
