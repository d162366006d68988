import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/api-error.ts';
import { canChangeDataviews, showLandlordActions } from './dataview-permissions.ts';
import { dataviewErrorsFromApi, initialValues, toDocument, validateDataview } from './dataview-form.ts';

const values = { ...initialValues(undefined, 'boss'), name: 'lobby', version: '1' };

describe('dataview form', () => {
  it('checks name, version, owner and content with the spec messages', () => {
    expect(validateDataview(values)).toEqual({});
    expect(validateDataview({ ...values, name: 'no spaces', version: ' ', owner: '', contentText: '{' })).toEqual({
      name: 'The field may contain alpha-numeric characters as well as underscores',
      version: 'This field is required',
      owner: 'This field is required',
      content: 'Is not valid JSON',
    });
    const big = `{"a":"${'x'.repeat(1_000_000)}"}`;
    expect(validateDataview({ ...values, contentText: big }).content).toBe(
      'File is too big. Only files up to 1000000 Bytes are allowed.',
    );
  });

  it('sends the owner among the authorised accounts and empty content as null', () => {
    const doc = toDocument({ ...values, authorized: ['dev1'], contentText: '' });
    expect(doc).toMatchObject({ owner: 'boss', authorized_accounts: ['boss', 'dev1'], content: null });
    expect(toDocument({ ...values, contentText: '{"format":1}' }).content).toEqual({ format: 1 });
  });

  it('puts server answers under their fields, content paths included', () => {
    const bad = new ApiError({
      status: 400,
      userMessage: 'Invalid input',
      developerMessage: '',
      details: { 'document.content.layout.items.0.x': ['Too big'], 'document.owner': ['Choose'] },
    });
    expect(dataviewErrorsFromApi(bad)).toEqual({ content: 'layout.items.0.x: Too big', owner: 'Choose' });
    const tooBig = new ApiError({ status: 413, userMessage: 'File is too big.', developerMessage: '' });
    expect(dataviewErrorsFromApi(tooBig).content).toBe('File is too big.');
    const taken = new ApiError({
      status: 409,
      userMessage: 'A dataview with this name already exists',
      developerMessage: '',
    });
    expect(dataviewErrorsFromApi(taken).name).toBe('A dataview with this name already exists');
  });

  it('offers the controls only to admins with all or Dataview_all; the landlord list also to superadmins', () => {
    expect(canChangeDataviews({ subtype: 'admin', permissions: ['Dataview_all'] })).toBe(true);
    expect(canChangeDataviews({ subtype: 'admin', permissions: ['Dataview_read'] })).toBe(false);
    expect(canChangeDataviews({ subtype: 'developer', permissions: ['all'] })).toBe(false);
    expect(canChangeDataviews({ subtype: 'sadmin', permissions: ['all'] })).toBe(false);
    expect(showLandlordActions({ subtype: 'sadmin', permissions: ['all'] })).toBe(true);
    expect(showLandlordActions(null)).toBe(false);
  });
});
