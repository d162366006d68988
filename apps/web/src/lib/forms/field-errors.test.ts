import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import { fieldErrorsFromApi, hasFieldErrors } from './field-errors.ts';

const FIELDS = ['name', 'email', 'password'] as const;

describe('fieldErrorsFromApi', () => {
  it('maps 400 details to fields by the last segment of the key', () => {
    const error = new ApiError({
      status: 400,
      userMessage: 'Invalid request',
      details: { 'document.email': ['The e-mail address is not valid'], 'operator.$set.name': ['Bad', 'Worse'] },
    });
    expect(fieldErrorsFromApi(error, FIELDS, 'name')).toEqual({
      email: 'The e-mail address is not valid',
      name: 'Bad',
    });
  });

  it('ignores details for fields the form does not have', () => {
    const error = new ApiError({ status: 400, userMessage: 'x', details: { subtype: ['no'] } });
    expect(hasFieldErrors(fieldErrorsFromApi(error, FIELDS))).toBe(false);
  });

  it("shows a 409's field details where they belong", () => {
    const error = new ApiError({
      status: 409,
      userMessage: 'Conflict',
      details: { 'document.name': ['An account with this name already exists'] },
    });
    expect(fieldErrorsFromApi(error, FIELDS, 'name')).toEqual({ name: 'An account with this name already exists' });
  });

  it('puts a 409 without details under the conflict field', () => {
    const error = new ApiError({ status: 409, userMessage: 'The name is already taken' });
    expect(fieldErrorsFromApi(error, FIELDS, 'name')).toEqual({ name: 'The name is already taken' });
  });

  it('gives nothing for other failures', () => {
    expect(fieldErrorsFromApi(new ApiError({ status: 500, userMessage: 'x' }), FIELDS, 'name')).toEqual({});
    expect(fieldErrorsFromApi(new Error('boom'), FIELDS, 'name')).toEqual({});
  });
});
