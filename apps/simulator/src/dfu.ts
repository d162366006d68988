import { createHash } from 'node:crypto';
import type { DfuPayload, DfuPhase } from '@fleet/shared/protocol';

/**
 * How a simulated firmware update goes wrong, when told to:
 * - `flaky-link`: the download breaks off halfway and resumes with Range (it still succeeds);
 * - `download-failed`: every attempt breaks off, and the device gives up;
 * - `bad-hash`: a byte arrives corrupted, so the SHA-256 does not match;
 * - `refuse`: the device declines the update before downloading.
 */
export const DFU_FAULTS = ['none', 'flaky-link', 'download-failed', 'bad-hash', 'refuse'] as const;
export type DfuFault = (typeof DFU_FAULTS)[number];

/** Reasons the device reports, as the protocol page lists them. */
export const DFU_ERRORS = {
  refused: 'refused: the device declined the update',
  hash: 'hash mismatch',
  download: 'download failed',
  badImage: 'install failed: the image does not run on this device',
} as const;

const ATTEMPTS = 4;

export type Progress = (phase: DfuPhase, progress: number, bytes?: number) => Promise<void> | void;

/**
 * Downloads and checks a firmware image like the hardware: resumable with Range from the last
 * byte received, hashed as it arrives, at most ATTEMPTS tries. Answers null when the image is
 * whole and matches, or the reason it is not.
 */
export async function fetchFirmware(
  p: DfuPayload,
  fault: DfuFault,
  progress: Progress,
  stop?: AbortSignal,
): Promise<string | null> {
  if (fault === 'refuse') return DFU_ERRORS.refused;
  const hash = createHash('sha256');
  let got = 0;
  let lastStep = -1;
  for (let attempt = 0; attempt < ATTEMPTS && got < p.size && !stop?.aborted; attempt++) {
    const abort = new AbortController();
    try {
      const res = await fetch(p.url, {
        headers: got > 0 ? { range: `bytes=${got}-` } : {},
        signal: stop ? AbortSignal.any([abort.signal, stop]) : abort.signal,
      });
      if (res.status !== (got > 0 ? 206 : 200) || !res.body) {
        await res.body?.cancel();
        return `${DFU_ERRORS.download}: HTTP ${res.status}`;
      }
      // A fault cuts this attempt after half the image (every attempt for download-failed).
      const cutAt =
        (fault === 'flaky-link' && attempt === 0) || fault === 'download-failed' ? Math.floor(p.size / 2) : Infinity;
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        let bytes = Buffer.from(chunk);
        const cut = got + bytes.length >= cutAt;
        if (cut) bytes = bytes.subarray(0, Math.max(0, cutAt - got));
        if (fault === 'bad-hash' && got === 0 && bytes.length > 0)
          bytes = Buffer.concat([Buffer.from([bytes[0]! ^ 0xff]), bytes.subarray(1)]);
        hash.update(bytes);
        got += bytes.length;
        const step = Math.floor((got / p.size) * 4);
        if (step !== lastStep) {
          lastStep = step;
          await progress('downloading', Math.min(100, Math.round((got / p.size) * 100)), got);
        }
        if (cut) {
          abort.abort();
          break;
        }
      }
    } catch {
      // The link dropped: the next attempt resumes from `got`.
    }
  }
  if (got < p.size) return `${DFU_ERRORS.download}: connection lost after ${got} of ${p.size} bytes`;
  await progress('verifying', 100, got);
  return hash.digest('hex') === p.sha256 ? null : DFU_ERRORS.hash;
}
