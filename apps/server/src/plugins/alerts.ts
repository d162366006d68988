import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AlertEvaluator } from '../domain/alert/alert-evaluator.ts';
import { AlertCountStreams } from '../domain/alert/count-streams.ts';
import type { Deps } from '../domain/deps.ts';
import { commandOutcome } from '../domain/alert/command-outcome.ts';

export interface Alerts {
  evaluator: AlertEvaluator;
  streams: AlertCountStreams;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Alert evaluation and the header's count streams on this instance (tests drive `evaluator`). */
    alerts: Alerts;
  }
}

/**
 * Alerts as a feature of the device side: every telemetry flush hands the devices it changed to
 * the evaluator, and the sweep runs every ALERT_SWEEP_S (one instance at a time). Stopped before
 * the database closes, after the device side has written its last telemetry.
 */
export const alertsPlugin = fp(
  async (app: FastifyInstance, { deps }: { deps: Deps }) => {
    const onError = (err: unknown) => app.log.error({ err }, 'alerts: evaluation failed');
    const evaluator = new AlertEvaluator(deps.db, deps.bus, { sweepMs: deps.config.ALERT_SWEEP_S * 1000, onError });
    const streams = new AlertCountStreams(deps.db, deps.bus, onError);
    app.devices.telemetry.onChanged((rows) =>
      evaluator.changed(
        rows.map((r) => r.name),
        rows.filter((r) => r.was_charging === true && r.is_charging === false).map((r) => r.name),
      ),
    );
    app.devices.commands.onSettled((rows) => evaluator.outcomes(rows.flatMap(commandOutcome)));
    app.addHook('preClose', async () => {
      streams.closeAll();
      await evaluator.close();
    });
    app.decorate('alerts', { evaluator, streams });
  },
  { name: 'alerts', dependencies: ['devices'] },
);
