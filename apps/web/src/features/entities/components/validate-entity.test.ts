import { MESSAGES } from '@fleet/shared/validation';
import { describe, expect, it } from 'vitest';
import { entityCreateBody } from '../api/create-entity.ts';
import { validateEntity } from './validate-entity.ts';

describe('validateEntity', () => {
  it('requires a name in api-name format', () => {
    expect(validateEntity({ name: '', description: '' }).name).toBe(MESSAGES.required);
    expect(validateEntity({ name: 'acme corp', description: '' }).name).toBe(MESSAGES.apiName);
    expect(validateEntity({ name: 'acme_2', description: '' })).toEqual({ name: undefined, description: undefined });
  });
});

describe('entityCreateBody', () => {
  it("is exactly core §7's {document: {name: {name, description}}}, trimmed", () => {
    expect(entityCreateBody({ name: ' acme ', description: ' Acme Ltd ' })).toEqual({
      document: { name: { name: 'acme', description: 'Acme Ltd' } },
    });
  });
});
