import type { Readable } from 'node:stream';

/** What a stored blob is: its key in the store, its length and its SHA-256 (hex). */
export interface StoredBlob {
  key: string;
  size: number;
  sha256: string;
}

/** A byte range, both ends inclusive (HTTP `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file and firmware bytes live (ARCHITECTURE.md "Embedded by default"): files under
 * `DATA_DIR/blobs`, or S3-compatible object storage. Keys are the store's own (random), never a
 * client's file name. A `put` either completes with the whole blob or leaves nothing behind.
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /**
   * Streams `source` into a new blob, hashing on the way. Rejects (and removes every byte it wrote)
   * when the source errors or passes `maxBytes` (with BlobTooLarge).
   */
  put(source: Readable, opts: { maxBytes: number }): Promise<StoredBlob>;
  /** The blob's bytes, or the given range of them. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the blob; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Every key with its last-modified time, for the orphan sweep. */
  list(): AsyncIterable<{ key: string; modified: Date }>;
  close(): Promise<void>;
}

/** Thrown by `put` when the source passes its byte limit. */
export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The upload passed ${maxBytes} bytes`);
  }
}
