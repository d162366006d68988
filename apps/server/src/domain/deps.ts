import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Bus } from '../lib/bus.ts';
import type { AccessTokens } from '../lib/tokens.ts';
// Deps is the seam where the running app meets the domain: it names the two live sides by type
// only. Moving DeviceSide and LiveConnections into domain/ waits for the device-message router.
// eslint-disable-next-line import-x/no-restricted-paths -- type only (docs/decisions/2026-11-25-import-boundaries.md)
import type { DeviceSide } from '../mqtt/device-side.ts';
// eslint-disable-next-line import-x/no-restricted-paths -- type only (docs/decisions/2026-11-25-import-boundaries.md)
import type { LiveConnections } from '../realtime/live-connections.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { DownloadSigner } from '../storage/signed-urls.ts';
import type { SessionGuard } from './session/session-guard.ts';
import type { PermanentTokenGuard } from './token/permanent-token-guard.ts';

/** What domain operations need from the running app. */
export interface Deps {
  db: Db;
  tokens: AccessTokens;
  config: Config;
  bus: Bus;
  sessions: SessionGuard;
  apiTokens: PermanentTokenGuard;
  /** The MQTT side: broker link, commands, telemetry, device credentials on the broker. */
  devices: DeviceSide;
  /** File and firmware bytes: DATA_DIR/blobs or S3. */
  blobs: BlobStore;
  /** Signed, expiring download links (devices fetch firmware with them). */
  downloads: DownloadSigner;
  /** Live sockets and event streams: each ends when its right lapses. */
  live: LiveConnections;
}
