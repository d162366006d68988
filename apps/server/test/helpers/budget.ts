import { startWithTwoEntities } from './devices.ts';

/** The state budget the budget tests set: a device may send this many reports a second, and at once. */
export const STATE_BUDGET = { rate: 5, burst: 10 };

/**
 * A server whose devices have the small state budget above (and `env` besides), with an entity to
 * register devices in and a way to read back a device's last reported battery.
 */
export async function startBudgetServer(env: Record<string, string>) {
  const { s, root, acme } = await startWithTwoEntities({
    MQTT_BUDGET_STATE: `${STATE_BUDGET.rate},${STATE_BUDGET.burst}`,
    ...env,
  });
  const battery = async (name: string) =>
    (await s.request('GET', `/api/v1/tenant/${acme}/device/${name}`, { token: root })).body.data.battery;
  return { s, root, acme, battery };
}
