import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../domain/deps.ts';
import { selectionJobs } from '../domain/device-selection/selection-jobs.ts';
import { SelectionRunner } from '../domain/device-selection/selection-runner.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The selection runs of this instance (routes/device-view starts them; tests tune and sweep). */
    selections: SelectionRunner;
  }
}

/**
 * Actions on "all N matching" run here in batches; a run whose instance stopped or died is taken
 * up by the sweep of whichever instance sees its lease lapse. Runs end before the database closes.
 */
export const selectionsPlugin = fp(
  async (app: FastifyInstance, { deps }: { deps: Deps }) => {
    const onError = (err: unknown, what: string) => app.log.error({ err }, `selections: ${what} failed`);
    const runner = new SelectionRunner(deps.db, selectionJobs(deps, app.provisioning.service, onError), onError);
    app.addHook('preClose', () => runner.stop());
    app.decorate('selections', runner);
    runner.start();
  },
  { name: 'selections', dependencies: ['devices', 'provisioning'] },
);
