import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Three tiers (ARCHITECTURE.md, Tests): unit tests beside the code, integration tests against
// a real running server, and end-to-end tests in Debian's Chromium.
export default defineConfig({
  test: {
    // One test file a core, in every project. Vitest's default in a run is one fewer than the
    // cores, which on a 2-core machine ran the whole suite one file at a time. The files do not
    // share state: each starts its own server on ports the system picks, on its own copy of the
    // migrated database in the temp dir (or its own PostgreSQL database in scale mode), or uses its
    // worker's shared server under entity, account and device names of its own.
    // In scale mode (MQTT_URL set by scripts/ci/with-services.sh) a file's servers hear every device
    // on their Mosquitto and every publish on their Redis, so two files on one pair would count each
    // other's traffic (received, dropped). The script starts one pair per worker (MQTT_URLS) and
    // apps/server/test/scale-worker.ts gives each worker its own: as many workers as pairs, and one
    // file at a time when only MQTT_URL is set.
    maxWorkers: process.env.MQTT_URL
      ? (process.env.MQTT_URLS?.split(' ').filter(Boolean).length ?? 0) || 1
      : os.availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // Pure tests (no server, no globals left behind): one worker runs its files in one module
          // graph instead of importing zod, drizzle and the shared schemas again for each file.
          isolate: false,
          // The default 5 s is too tight for the 200,000-device memory test and the S3 round trip
          // when the machine is shared (seen at a load of 22 on 2 cores).
          testTimeout: 15_000,
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/simulator/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'scale',
          environment: 'node',
          include: ['apps/server/test/scale/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          setupFiles: ['apps/server/test/scale-worker.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The console's unit tests need its `@/` import alias, so they keep their own config.
      'apps/web/vitest.config.ts',
      {
        test: {
          name: 'integration',
          environment: 'node',
          // On the embedded database, a worker runs its files in one module graph: the server's
          // modules (Fastify, Drizzle, the schemas, Aedes) are imported once per worker instead of
          // once per file, which was most of the tier's time with no test running, and the files
          // whose data is their own share the worker's server (helpers/shared-server.ts,
          // docs/decisions/2026-11-29-integration-shared-server.md); the rest start and close their
          // own. The server keeps no state in its modules that outlives an app (its caches hang off
          // the app instance). In scale mode each file keeps its own process and servers.
          isolate: Boolean(process.env.MQTT_URL),
          include: ['apps/server/test/integration/**/*.test.ts'],
          // The embedded mode's own: `npm run backup` and the upgrade fixture are PGlite's data
          // directory (PostgreSQL is backed up with its own tools: docs/operations.md).
          exclude: process.env.DATABASE_URL
            ? ['apps/server/test/integration/backup-restore.test.ts', 'apps/server/test/integration/upgrade.test.ts']
            : [],
          globalSetup: ['apps/server/test/global-setup.ts'],
          // Scale mode: each worker's own Redis and Mosquitto.
          setupFiles: ['apps/server/test/scale-worker.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          // A worker runs its files in one module graph, as integration does: the server's modules,
          // playwright-core and the simulator are imported once per worker, not once per file (about
          // 9 s of a file's start). Most files share their worker's server and Chromium
          // (`startHarness({ shared: true })`, each file under its own entities and names); the rest
          // start their own (docs/decisions/2026-11-28-e2e-worker-server.md). Helper modules keep
          // no state across files (devices-world resets its memo per file).
          isolate: false,
          // In parallel like the other tiers (one file a core): each file has its own entities (or
          // its own server), its own simulator and a fresh browser context, screenshots named after
          // its screens, and npm test builds the console and the server once before the run starts.
          // 90 s: two files at once on two cores each run a server, its database thread and a
          // Chromium, so a test's longest steps (an axe sweep of a few screens in light and dark)
          // take several times a quiet laptop's time. A test that needs more is split, as the long
          // sweeps were; the timeout is the margin for a CI box's slow minute, not a budget.
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // expect.poll's own default is 1 s: a reload that signs in again and loads a list takes
          // longer than that on a 2-core box running four browsers, and a poll that gives up
          // before the screen has loaded fails a test that is right.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
