import type { Command } from '@fleet/shared/schemas/command';
import type { Device } from '@fleet/shared/schemas/device';

/** A responsive, connected device of `acme`, for tests; `patch` changes what the test is about. */
export const aDevice = (patch: Partial<Device> = {}): Device => ({
  name: '240ac40a2e48',
  description: '',
  entity: 'acme',
  group: null,
  manufacturing_type: 'CC1',
  version_id: null,
  mac_1: null,
  mac_2: null,
  has_certificate: false,
  fw_version: '1.2.0',
  state: { current: 'ALLOCATED' },
  battery: 80,
  is_charging: false,
  last_dispenser: null,
  current_provision: null,
  current_download: null,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: new Date().toISOString(),
  online: true,
  ...patch,
});

/** A vibrate that succeeded in 840 ms, for tests. */
export const aCommand = (patch: Partial<Command> = {}): Command => ({
  id: '6f1c2a4e-7b3d-4c2e-9a1f-0d2b3c4d5e6f',
  device: '240ac40a2e48',
  entity: 'acme',
  type: 'vibrate',
  payload: { song: 'V10' },
  target: 'device',
  state: 'succeeded',
  sent_by: 'alice',
  created_at: '2026-11-22T12:00:00Z',
  sent_at: '2026-11-22T12:00:00Z',
  replied_at: '2026-11-22T12:00:01Z',
  expires_at: '2026-11-22T13:00:00Z',
  error: null,
  latency_ms: 840,
  progress_phase: null,
  progress: null,
  ...patch,
});
