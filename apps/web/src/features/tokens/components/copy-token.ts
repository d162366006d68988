import { notifyError, notifySuccess } from '@/lib/notify.ts';

/** Copies a generated token's value with the spec's three notices (core §8); resolves true on success. */
export async function copyToken(value: string | null | undefined): Promise<boolean> {
  if (!value) {
    notifyError('Token value not available for copying');
    return false;
  }
  try {
    await navigator.clipboard.writeText(value);
    notifySuccess('Token copied to clipboard');
    return true;
  } catch (error) {
    console.error('Could not copy the token:', error);
    notifyError('Failed to copy token');
    return false;
  }
}
