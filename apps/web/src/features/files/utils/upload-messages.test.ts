import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/api-error.ts';
import { uploadErrorText } from './upload-messages.ts';

describe('uploadErrorText', () => {
  it('says Invalid device path format for any answer about the device path', () => {
    const e = new ApiError({ status: 400, userMessage: 'Invalid input', developerMessage: 'file_device_path: bad' });
    expect(uploadErrorText(e, 'Failed to upload file')).toBe('Invalid device path format');
  });

  it('shows the server message, a field message for invalid input, or the fallback', () => {
    const big = new ApiError({
      status: 413,
      userMessage: 'File is too big. Only files up to 10000000 Bytes are allowed.',
    });
    expect(uploadErrorText(big, 'x')).toBe('File is too big. Only files up to 10000000 Bytes are allowed.');
    const field = new ApiError({ status: 400, userMessage: 'Invalid input', details: { version: ['Required'] } });
    expect(uploadErrorText(field, 'x')).toBe('Required');
    expect(uploadErrorText(new Error('boom'), 'An unexpected error occurred')).toBe('An unexpected error occurred');
  });
});
