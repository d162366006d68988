import { FILE_LIMITS, fileTooBig } from '@fleet/shared/constants';
import type { CertificateFile } from './device-form.ts';

/** The certificate file types the form accepts (fleet §2). */
export const CERTIFICATE_ACCEPT = '.pem,.pub';

/**
 * Reads a chosen X509 certificate as text after checking its type (.pem or .pub) and size (at
 * most 100000 bytes, fleet §5); answers the spec's message when it is too big.
 */
export async function readCertificate(file: File): Promise<{ value: CertificateFile } | { error: string }> {
  if (!/\.(pem|pub)$/i.test(file.name)) return { error: 'Only .pem or .pub files are accepted.' };
  if (file.size > FILE_LIMITS.certificate) return { error: fileTooBig(FILE_LIMITS.certificate) };
  return { value: { fileName: file.name, text: await file.text() } };
}
