import { expect } from 'vitest';
import { SimulatedDevice, type DeviceOptions } from '@fleet/simulator/device';
import { eventually, randomDeviceId } from './devices.ts';
import type { TestServer } from './server.ts';

/**
 * Registers a CC1 device in `entity` and starts a simulated device for it that never sleeps
 * (time ×100); resolves once the server shows it online. Stop it after the test (`stop()`).
 */
export async function onlineSimulatedDevice(
  s: TestServer,
  entity: string,
  token: string,
  options: Partial<Omit<DeviceOptions, 'id' | 'entity' | 'secret' | 'url'>>,
  name = randomDeviceId(),
): Promise<SimulatedDevice> {
  const res = await s.request('POST', `/api/v1/tenant/${entity}/device`, {
    token,
    body: { document: { name, description: 'sim', manufacturing_type: 'CC1' } },
  });
  const d = new SimulatedDevice({
    id: name,
    entity,
    secret: res.body.data.mqtt.password,
    url: s.mqttUrl,
    sleeps: false,
    timeScale: 100,
    ...options,
  });
  d.start();
  await d.whenOnline();
  await eventually(async () => {
    const dev = await s.request('GET', `/api/v1/tenant/${entity}/device/${name}`, { token });
    expect(dev.body.data.online).toBe(true);
  });
  return d;
}
