import type { CommandDecision } from './commands.ts';
import type { DfuFault } from './dfu.ts';
import type { DeviceStatus } from './device-model.ts';
import type { FaultSettings } from './faults.ts';
import type { ProvisionFault } from './provision.ts';

/** What a simulated device is made with, what it counts, and what it tells (device.ts). */

export interface DeviceOptions {
  /** The device id (12 lower-case hex): also its MQTT username and client id. */
  id: string;
  entity: string;
  /** Its MQTT password, as the create or regenerate-credentials answer gave it. */
  secret: string;
  /** The broker, e.g. `mqtt://127.0.0.1:1883`. */
  url: string;
  /** The same seed replays the same behaviour; default 1. */
  seed?: number;
  /** Simulated seconds per real second: 20 turns a 60 s report interval into 3 s. Default 1. */
  timeScale?: number;
  /** Simulated seconds between state reports; default 60. */
  reportEveryS?: number;
  /** Whether an idle device goes to sleep now and then; default true. */
  sleeps?: boolean;
  faults?: FaultSettings;
  /** How a firmware update goes wrong, if at all (default none). */
  dfuFault?: DfuFault;
  /**
   * Firmware versions this device downloads but fails to install, as a bad image for its device
   * type does (`markBadImage` changes the list while it runs: the image fixed).
   */
  badImages?: string[];
  /**
   * Firmware versions this device installs and then is bricked by: it answers the update with
   * the new version, then hangs, never heard from again; the broker ends its connection when the
   * keepalive runs out and publishes its Last Will (image-marks.ts).
   */
  brickImages?: string[];
  /**
   * Firmware versions this device installs, answers, and then reboot-loops on: 20 simulated
   * seconds after every boot it crashes (the Last Will), reboots and reports `BOOTING` again.
   */
  loopImages?: string[];
  /** The MQTT keepalive, in real seconds (default 60): a hung device is dropped after 1.5× it. */
  keepaliveS?: number;
  /** How a provisioning session goes wrong, if at all (default none). */
  provisionFault?: ProvisionFault;
  /** Overrides the seeded starting status (state, firmware, battery). */
  status?: Partial<DeviceStatus>;
}

/** Counters the command line and benchmarks print. */
export interface DeviceStats {
  /** Messages published (state reports and replies). */
  sent: number;
  /** Valid, new, unexpired commands received. */
  commands: number;
  /** Replies published. */
  answered: number;
  /** Successful connections, first and re-. */
  connects: number;
}

/** `off` before the first connection and after stop; `away` while asleep, rebooting or after a dropped link. */
export type DevicePhase = 'off' | 'connecting' | 'online' | 'away';

export interface DeviceEvents {
  /** Connected, subscribed and the connect-time state report sent. */
  online: [];
  /** A message arrived on a `cmd` topic and this is what the device made of it. */
  command: [CommandDecision];
  /** Something went wrong on the link (refused credentials, a denied subscription…). */
  problem: [Error];
}
