import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, startHarness, type Harness } from './browser.ts';
import { ENTITY_ROUTES, forbidden, seedRoles, tour, type Account } from './role-tour.ts';

/**
 * Issue 25: the entity account of `role` visits every route of the spec and uses what it is
 * shown; nothing answers 403 or loads for over 5 s. One file a role, so the tours run in parallel.
 */
export function describeRoleTour(role: 'admin' | 'developer' | 'infra'): void {
  let h: Harness;
  let account: Account;

  beforeAll(async () => {
    if (!chromiumPath) return;
    // The worker's server, and the demo fleet seeded once on it for every role file the worker runs.
    h = await startHarness({ shared: true });
    account = (await h.once('roles', () => seedRoles(h)))[role];
  });
  afterAll(async () => h?.close());

  describe.skipIf(!chromiumPath)(`the ${role} role in Chromium`, () => {
    it(
      'is shown no control that the server refuses, and no screen waits more than 5 s',
      { timeout: 300_000 },
      async () => {
        const { page } = await h.newPage({ as: account });
        const report = await tour(page, ENTITY_ROUTES(account.name));
        expect(report.visited.length).toBeGreaterThan(ENTITY_ROUTES(account.name).length);
        expect(forbidden(report)).toEqual([]);
        expect(report.deadEnds).toEqual([]);
        expect(report.slow, report.slow.join('\n')).toEqual([]);
      },
    );
  });
}
