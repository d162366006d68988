import type { MqttClient } from 'mqtt';
import { topics } from '@fleet/shared/protocol';
import { ProvisionCancelSchema, ProvisionCommandSchema, type ProvisionCommand } from '@fleet/shared/provision';
import { type ProvisionFault, runProvisioning } from './provision.ts';

/** What a provisioning session needs of the simulated device that runs it. */
export interface ProvisioningHost {
  readonly id: string;
  readonly entity: string;
  /** How the session goes wrong, read when it starts (tests change it between sessions). */
  fault(): ProvisionFault;
  /** Aborted when the device stops for good. */
  readonly halt: AbortSignal;
  /** The current connection, if any (a session outlives a dropped link). */
  client(): MqttClient | null;
  /** The device shows PROVISIONING while a session runs. */
  setBusy(busy: boolean): void;
  report(client: MqttClient): void;
  publish(client: MqttClient, topic: string, message: unknown): Promise<boolean>;
  whenOnline(): Promise<void>;
  drop(): void;
  /** Remembers a command id; false when it was seen before (a redelivery). */
  remember(id: string): boolean;
  /** A new provision command arrived (the device's command count). */
  counted(): void;
}

/**
 * The simulated device's provisioning: at most one session at a time, run for real (downloads,
 * verifies and reports each file on `…/events`), cancelled by the server's `provision_cancel`.
 */
export class DeviceProvisioning {
  /** Sessions finished (with their file counts) since start. */
  readonly done: Array<{ session: string; completed: number; failed: number }> = [];
  /** The running session and what stops it. */
  private running: { session: string; stop: AbortController } | null = null;

  constructor(private readonly host: ProvisioningHost) {}

  /** Stops the session if it is the one named; false when another (or none) runs. */
  cancel(session: string, client: MqttClient): boolean {
    if (this.running?.session !== session) return false;
    this.running.stop.abort();
    this.running = null;
    this.host.setBusy(false);
    this.host.report(client);
    return true;
  }

  /** Stops whatever runs (the device is stopping). */
  stop(): void {
    this.running?.stop.abort();
  }

  /** A provision or provision_cancel message: handled here (answers false for anything else). */
  onMessage(client: MqttClient, raw: Buffer): boolean {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString());
    } catch {
      return false;
    }
    const cancel = ProvisionCancelSchema.safeParse(body);
    if (cancel.success) {
      if (this.host.remember(cancel.data.id)) this.cancel(cancel.data.payload.session_id, client);
      return true;
    }
    const command = ProvisionCommandSchema.safeParse(body);
    if (!command.success) return false;
    if (!this.host.remember(command.data.id)) return true;
    this.host.counted();
    void this.run(client, command.data);
    return true;
  }

  /** Runs a session; a new one replaces the one running. */
  async run(client: MqttClient, command: ProvisionCommand): Promise<void> {
    const host = this.host;
    this.running?.stop.abort();
    const stop = new AbortController();
    const session = command.payload.session_id;
    this.running = { session, stop };
    host.setBusy(true);
    host.report(client);
    const events = topics.events(host.entity, host.id);
    let n = 0;
    const outcome = await runProvisioning(
      command,
      host.fault(),
      {
        report: async (body) => {
          if (stop.signal.aborted) return;
          await host.whenOnline();
          n++;
          await host.publish(host.client() ?? client, events, { type: 'provision', session_id: session, n, ...body });
        },
        dropLink: async () => {
          host.drop();
          await host.whenOnline();
        },
      },
      AbortSignal.any([stop.signal, host.halt]),
    );
    if (this.running?.session !== session) return;
    // A stalled session keeps the device busy until the server gives up and cancels it.
    if (!outcome && !stop.signal.aborted) return;
    this.running = null;
    host.setBusy(false);
    if (outcome) this.done.push({ session, ...outcome });
    const current = host.client();
    if (current) host.report(current);
  }
}
