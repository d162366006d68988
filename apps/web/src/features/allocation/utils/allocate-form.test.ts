import { describe, expect, it } from 'vitest';
import { checkAllocation } from './allocate-form.ts';

describe('checkAllocation', () => {
  it('needs a user ID of letters, digits and underscores', () => {
    expect(checkAllocation({ visitor: '', apps: {}, network: '' }, 'd').errors.visitor).toBe('This field is required');
    expect(checkAllocation({ visitor: 'a b', apps: {}, network: '' }, 'd').errors.visitor).toBe(
      'The field may contain alpha-numeric characters as well as underscores',
    );
  });

  it("checks each selected dataview's JSON and the network info", () => {
    const { errors, request } = checkAllocation(
      { visitor: 'v1', apps: { guide: '{x', menu: '{}' }, network: '[' },
      'd',
    );
    expect(errors.apps).toEqual({ guide: 'Is not valid JSON' });
    expect(errors.network).toBe('Is not valid JSON');
    expect(request).toBeNull();
  });

  it('builds the payload: parsed JSON, {} for an empty dataview, no network when none was given', () => {
    const { request } = checkAllocation({ visitor: 'v1', apps: { guide: '{"a":1}', menu: ' ' }, network: '' }, 'dev');
    expect(request).toEqual({ visitor: 'v1', device: 'dev', apps: { guide: { a: 1 }, menu: {} } });
    const withNet = checkAllocation({ visitor: 'v1', apps: {}, network: '{"ssid":"x"}' }, 'dev').request;
    expect(withNet?.network).toEqual({ ssid: 'x' });
  });
});
