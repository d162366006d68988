import fs from 'node:fs';
import pino from 'pino';

/** Log lines held in memory while the reader of a pipe is slow; past this, lines are dropped. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * Where the server's log goes: standard output, written so that a reader that stops reading (a
 * supervisor that hung or went away) can never keep the process alive. Two traps, both found
 * with a SIGTERM'd server that stayed up for 30 minutes:
 * - pino flushes its buffer synchronously on `exit`, and on a full non-blocking pipe or socket it
 *   retries forever, sleeping 100 ms at a time: `process.exit` never returns. While exiting we
 *   stop retrying and drop what the reader did not take.
 * - Node leaves an inherited FIFO on fd 1 blocking, so an asynchronous write to a full one parks a
 *   libuv pool thread in write(2) for good, and exit waits forever to join that thread. On Linux
 *   we open the same pipe again as a new, non-blocking file description (`/proc/self/fd/1`; the
 *   parent's description keeps its flags).
 * A slow reader meanwhile costs memory, at most 8 MiB of lines; past that, lines are dropped.
 */
export function logDestination(): pino.DestinationStream {
  let exiting = false;
  // Registered before pino's own exit hook (it registers when the destination is created).
  process.once('exit', () => (exiting = true));
  const destination = pino.destination({
    fd: nonBlockingStdout(),
    sync: false,
    maxLength: MAX_BUFFERED_BYTES,
    retryEAGAIN: () => !exiting,
  });
  const flushSync = destination.flushSync.bind(destination);
  destination.flushSync = () => {
    try {
      flushSync();
    } catch {
      // The reader took nothing more before exit: those lines are lost, the exit is not.
    }
  };
  return destination;
}

function nonBlockingStdout(): number {
  try {
    if (process.platform !== 'linux' || !fs.fstatSync(1).isFIFO()) return 1;
    return fs.openSync('/proc/self/fd/1', fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  } catch {
    return 1;
  }
}
