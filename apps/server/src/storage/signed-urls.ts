import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed URL lets its holder download: one firmware or file record's blob. */
export type DownloadKind = 'firmware' | 'file';

/**
 * Short-lived download links that need no bearer token (devices fetch firmware with them):
 * `/api/v1/download/{kind}/{id}?expires={epoch s}&signature={HMAC-SHA256}`. The key is derived
 * from the JWT secret, so every instance that shares it verifies every other's links.
 */
export class DownloadSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('fleet-console download links v1').digest();
  }

  private sign(kind: DownloadKind, id: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${kind}\n${id}\n${expires}`).digest('base64url');
  }

  /** The path and query of a link to `kind`/`id` valid until `expiresAt`. */
  path(kind: DownloadKind, id: string, expiresAt: Date): string {
    const expires = Math.ceil(expiresAt.getTime() / 1000);
    return `/api/v1/download/${kind}/${id}?expires=${expires}&signature=${this.sign(kind, id, expires)}`;
  }

  /** Whether the link's signature is ours and it has not expired (compared in constant time). */
  verify(
    kind: DownloadKind,
    id: string,
    expires: number,
    signature: string,
    now = Date.now(),
  ): 'ok' | 'bad' | 'expired' {
    const expected = Buffer.from(this.sign(kind, id, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad';
    return expires * 1000 < now ? 'expired' : 'ok';
  }
}
