import { createHash } from 'node:crypto';
import type { ProvisionCommand, ProvisionDeviceEvent, ProvisionFile } from '@fleet/shared/provision';

/**
 * How a simulated provisioning session goes wrong, when told to:
 * - `all-fail`: every file arrives corrupted, so no SHA-256 matches;
 * - `some-fail`: every second file (the 2nd, 4th…) arrives corrupted;
 * - `stall`: the device accepts the session and then says nothing more (the server times it out);
 * - `link-drop`: the link drops after the first file; the device reconnects and carries on.
 */
export const PROVISION_FAULTS = ['none', 'all-fail', 'some-fail', 'stall', 'link-drop'] as const;
export type ProvisionFault = (typeof PROVISION_FAULTS)[number];

export const PROVISION_ERRORS = { hash: 'hash mismatch', download: 'download failed' } as const;

/** A report without the type and session the transport adds (one shape per phase). */
type Report = ProvisionDeviceEvent extends infer E
  ? E extends unknown
    ? Omit<E, 'type' | 'session_id'>
    : never
  : never;

export interface ProvisionHooks {
  /** Publishes a report on `…/events` (the transport adds type and session). */
  report(body: Report): Promise<void>;
  /** Drops the link and resolves once the device is back online. */
  dropLink(): Promise<void>;
  /** Each verified file, as the device would write it to `device_path`. */
  store?(file: ProvisionFile, bytes: Buffer): void;
}

/** Downloads one file and checks its size and SHA-256; answers null when it is whole, or the reason. */
export async function fetchFile(f: ProvisionFile, corrupt: boolean, signal: AbortSignal): Promise<Buffer | string> {
  try {
    const res = await fetch(f.url, { signal });
    if (res.status !== 200) {
      await res.body?.cancel();
      return `${PROVISION_ERRORS.download}: HTTP ${res.status}`;
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    if (corrupt && bytes.length > 0) bytes[0] = bytes[0]! ^ 0xff;
    if (bytes.length !== f.size) return `${PROVISION_ERRORS.download}: ${bytes.length} of ${f.size} bytes`;
    return createHash('sha256').update(bytes).digest('hex') === f.sha256 ? bytes : PROVISION_ERRORS.hash;
  } catch (err) {
    if (signal.aborted) return 'cancelled';
    return `${PROVISION_ERRORS.download}: ${(err as Error).message}`;
  }
}

/**
 * A provisioning session as the hardware runs it (docs/device-protocol.md "Provisioning"): ready,
 * every file queued, then one at a time downloading and completed or failed, then finalizing and
 * completed with each file's result. Stops quietly when `signal` aborts (cancel, stop).
 */
export async function runProvisioning(
  command: ProvisionCommand,
  fault: ProvisionFault,
  hooks: ProvisionHooks,
  signal: AbortSignal,
): Promise<{ completed: number; failed: number } | null> {
  const files = command.payload.files;
  await hooks.report({ phase: 'ready' });
  if (fault === 'stall') return null;
  for (const f of files) {
    if (signal.aborted) return null;
    await hooks.report({ phase: 'file', device_path: f.device_path, status: 'queued' });
  }
  const results: Array<{ device_path: string; status: 'completed' | 'failed'; error?: string }> = [];
  for (const [i, f] of files.entries()) {
    if (signal.aborted) return null;
    await hooks.report({ phase: 'file', device_path: f.device_path, status: 'downloading' });
    const corrupt = fault === 'all-fail' || (fault === 'some-fail' && i % 2 === 1);
    const got = await fetchFile(f, corrupt, signal);
    if (signal.aborted) return null;
    if (typeof got === 'string') {
      results.push({ device_path: f.device_path, status: 'failed', error: got });
      await hooks.report({ phase: 'file', device_path: f.device_path, status: 'failed', error: got });
    } else {
      hooks.store?.(f, got);
      results.push({ device_path: f.device_path, status: 'completed' });
      await hooks.report({ phase: 'file', device_path: f.device_path, status: 'completed' });
    }
    if (fault === 'link-drop' && i === 0) await hooks.dropLink();
  }
  if (signal.aborted) return null;
  await hooks.report({ phase: 'finalizing' });
  await hooks.report({ phase: 'completed', results });
  const failed = results.filter((r) => r.status === 'failed').length;
  return { completed: results.length - failed, failed };
}
