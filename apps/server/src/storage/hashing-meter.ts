import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLarge } from './blob-store.ts';

/**
 * A pass-through that hashes (SHA-256) and counts what flows through it, and fails the pipeline
 * as soon as more than `maxBytes` arrive, so an oversize upload stops being written at once.
 */
export class HashingMeter extends Transform {
  private readonly hash = createHash('sha256');
  size = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(new BlobTooLarge(this.maxBytes));
    this.hash.update(chunk);
    done(null, chunk);
  }

  /** The hex digest; call once, after the stream ended. */
  digest(): string {
    return this.hash.digest('hex');
  }
}
