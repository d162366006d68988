import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { LiveEndReason } from '@fleet/shared/beacon-constants';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Bus, DevicesChanged } from '../lib/bus.ts';
import type { AccessTokens } from '../lib/tokens.ts';
import type { CommandService } from './command/command-service.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { DownloadSigner } from '../storage/signed-urls.ts';
import type { SessionGuard } from './session/session-guard.ts';
import type { PermanentTokenGuard } from './token/permanent-token-guard.ts';

/**
 * What the domain asks of the device side (mqtt/device-side.ts gives more: the broker link, the
 * router, counters; plugins and routes reach those through `app.devices`).
 */
export interface DeviceServices {
  /** Where device credentials take effect (the broker's cache, an external Mosquitto). */
  access: {
    issued(list: Array<{ name: string; entity: string; password: string }>): Promise<void>;
    /** `names` are needed for an external broker; `change` says what instances forget. */
    revoked(names: string[], change?: DevicesChanged): Promise<void>;
  };
  commands: CommandService;
}

/** What a live connection (event stream, socket) was opened with. */
export interface LiveCredential {
  /** The bearer of the handshake or request: an access JWT or a permanent token. */
  token: string;
  /** Its claims when the connection opened. */
  claims: AccessClaims;
  /** The entity the connection follows. */
  entity: string;
}

/** Live connections that end with their right (realtime/live-connections.ts). */
export interface LiveWatch {
  /** Follows a connection until its right lapses, then calls `end` once; answers the unwatch. */
  watch(credential: LiveCredential, end: (reason: LiveEndReason) => void): () => void;
}

/** What domain operations need from the running app. */
export interface Deps {
  db: Db;
  tokens: AccessTokens;
  config: Config;
  bus: Bus;
  sessions: SessionGuard;
  apiTokens: PermanentTokenGuard;
  /** The MQTT side: commands, device credentials on the broker. */
  devices: DeviceServices;
  /** File and firmware bytes: DATA_DIR/blobs or S3. */
  blobs: BlobStore;
  /** Signed, expiring download links (devices fetch firmware with them). */
  downloads: DownloadSigner;
  /** Live sockets and event streams: each ends when its right lapses. */
  live: LiveWatch;
  /** Bench only (BuildOptions.unaudited): requests' changes record no audit entry. */
  unaudited?: boolean;
}
