import type { ServerResponse } from 'node:http';
import { ReadableStream } from 'node:stream/web';
import type { PartPool } from '../lib/part-pool.ts';
import { exposedGc, type Gc } from '../lib/young-generation-trim.ts';

/** Bytes handed over between two scavenges the writer asks for (see partsBody). */
export const SCAVENGE_EVERY_BYTES = 8 * 1_048_576;

/**
 * An export's body, its parts given back to their pool once written
 * (docs/decisions/2026-11-29-export-parts-recycled-once-written.md). Fastify writes a web stream
 * itself: a part a read, and the next read only when `res.write` took the part or the socket has
 * drained. This stream reads its source only on such a read (no part waits in it), and at each
 * read, when nothing is left unwritten in the response (`res.writableLength` 0: the socket's
 * writes are done, its callbacks called), gives back every part handed over before: none is
 * reused while the socket may still send from it. A response that closes early (the client gone)
 * cancels the stream, which ends the source: its reads stop and its finally blocks run.
 *
 * Every SCAVENGE_EVERY_BYTES handed over, a scavenge (`gc`): the bytes read from the database's
 * socket arrive in Buffers of node's own (64 KB reads) that die at once but whose memory only a
 * scavenge frees, and with the lines no longer strings the export allocates so little in the heap
 * that V8's own scavenges came every 10 s or so, 25 MB of dead read buffers apart.
 */
export function partsBody(
  source: AsyncIterable<Buffer | string>,
  res: Pick<ServerResponse, 'writableLength'>,
  parts: PartPool,
  gc: () => Gc = exposedGc,
): ReadableStream<Buffer | string> {
  const iterator = source[Symbol.asyncIterator]();
  const handed: (Buffer | string)[] = [];
  let sinceScavenge = 0;
  let scavenge: Gc | undefined;
  const giveBackWritten = () => {
    if (res.writableLength !== 0) return;
    for (const part of handed) parts.release(part);
    handed.length = 0;
  };
  return new ReadableStream<Buffer | string>(
    {
      async pull(controller) {
        giveBackWritten();
        const next = await iterator.next();
        if (next.done) return controller.close();
        handed.push(next.value);
        sinceScavenge += next.value.length;
        if (sinceScavenge >= SCAVENGE_EVERY_BYTES) {
          sinceScavenge = 0;
          scavenge ??= gc();
          scavenge({ type: 'minor' });
        }
        controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
