/**
 * Recycled memory for an export's parts (bench/notes/audit-and-history-cost.md, s25c). A part
 * copied into a Buffer of its own is memory outside V8's heap that only the Buffer's handle
 * frees: a handle that outlived two scavenges was promoted, and its memory stayed until V8's
 * next mark-compact, which external memory starts only past 64 MB (the RSS rose up to +92 MB).
 * Here a part's bytes go into a buffer taken from the pool and come back to it once the socket
 * has written them: the export's external memory is what is in flight plus a bounded spare.
 */

/** Buffers of one size a class: powers of two from 16 KB (a part runs to a few tens of KB). */
const MIN_CLASS = 16_384;

const classOf = (size: number) => Math.max(MIN_CLASS, 2 ** Math.ceil(Math.log2(Math.max(size, 1))));

export class PartPool {
  /** Buffers lent out and not yet given back, by their memory. */
  private readonly lent = new Map<ArrayBuffer, Buffer>();
  private readonly spare = new Map<number, Buffer[]>();
  private spareBytes = 0;
  /** Bytes of the buffers lent out (their classes, not the parts' lengths). */
  lentBytes = 0;

  /** @param maxSpare bytes kept for reuse at most; a buffer given back beyond it is left to the collector. */
  constructor(private readonly maxSpare = 4 * 1_048_576) {}

  /** A copy of `bytes` in a buffer of the pool, to be given back by `release` once written. */
  copy(bytes: Uint8Array): Buffer {
    const size = classOf(bytes.length);
    const reused = this.spare.get(size)?.pop();
    if (reused) this.spareBytes -= size;
    const whole = reused ?? Buffer.allocUnsafeSlow(size);
    this.lent.set(whole.buffer as ArrayBuffer, whole);
    this.lentBytes += size;
    whole.set(bytes);
    return whole.subarray(0, bytes.length);
  }

  /** Gives back the buffer `part` (or a view of it) lies in; anything else the pool did not lend is ignored. */
  release(part: Uint8Array | string): void {
    if (typeof part === 'string') return;
    const whole = this.lent.get(part.buffer as ArrayBuffer);
    if (!whole) return;
    this.lent.delete(part.buffer as ArrayBuffer);
    this.lentBytes -= whole.length;
    if (this.spareBytes + whole.length > this.maxSpare) return;
    const list = this.spare.get(whole.length) ?? [];
    list.push(whole);
    this.spare.set(whole.length, list);
    this.spareBytes += whole.length;
  }
}
