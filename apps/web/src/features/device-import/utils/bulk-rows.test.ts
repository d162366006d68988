import { MESSAGES } from '@fleet/shared/validation';
import { describe, expect, it } from 'vitest';
import { checkRows, rowDocument } from './bulk-rows.ts';

const device = (line: number, name: string, description = '', version_id = '') => ({
  line,
  name,
  description,
  version_id,
});

describe('checkRows', () => {
  it('marks ids that break the shared rule, and ids listed twice', () => {
    const rows = checkRows([
      device(2, '240ac40a2e48'),
      device(3, '240AC40A2E48'),
      device(4, ''),
      device(5, '240ac40a2e48'),
      device(6, '240ac40a2e49', 'x'.repeat(501)),
      device(7, '240ac40a2e4a', 'ok', '1.0'),
    ]);
    expect(rows.map((r) => r.issue)).toEqual([
      undefined,
      `Device ID: ${MESSAGES.deviceId}`,
      `Device ID: ${MESSAGES.required}`,
      'Device ID: listed twice (also on line 2)',
      'Description: At most 500 characters',
      undefined,
    ]);
  });
});

describe('rowDocument', () => {
  it('sends name, description, CC1 and the version when there is one', () => {
    expect(rowDocument(device(2, '240ac40a2e48', 'Lobby', '2.1'))).toEqual({
      name: '240ac40a2e48',
      description: 'Lobby',
      manufacturing_type: 'CC1',
      version_id: '2.1',
    });
    expect(rowDocument(device(2, '240ac40a2e48'), 'acme')).toEqual({
      name: '240ac40a2e48',
      description: '',
      manufacturing_type: 'CC1',
      entity: 'acme',
    });
  });
});
