import { EventEmitter } from 'node:events';
import net from 'node:net';
import mqtt, { MqttClient, type IClientOptions } from 'mqtt';
import { topics, type CommandMessage, type DfuPayload, type DfuPhase, type ReplyMessage } from '@fleet/shared/protocol';
import { decideCommand } from './commands.ts';
import { DFU_ERRORS, type DfuFault, fetchFirmware } from './dfu.ts';
import { DeviceModel } from './device-model.ts';
import { type FaultSettings, type Faults, NO_FAULTS, applyFaults, happens } from './faults.ts';
import { type ImageMark, ImageMarks } from './image-marks.ts';
import { initialStatus } from './profile.ts';
import { type Random, deviceSeed, seededRandom } from './random.ts';
import { SeenIds } from './seen-ids.ts';
import { DeviceProvisioning } from './device-provisioning.ts';
import type { DeviceEvents, DeviceOptions, DevicePhase, DeviceStats } from './device-options.ts';
import type { ProvisionFault } from './provision.ts';
import { SeverableLink, tcpAddress } from './severable-link.ts';

export type { DeviceOptions, DevicePhase, DeviceStats } from './device-options.ts';

/** What a device says before it sleeps, and what the broker says for it when the link dies. */
const OFFLINE = { online: false } as const;
/** Simulated pause of a reboot, and before reconnecting after a dropped link. */
const REBOOT_MS = 5_000;
const RECONNECT_AFTER_DROP_MS = 15_000;
/** Simulated time after each boot on a reboot-looping image before the device crashes again. */
const CRASH_AFTER_MS = 20_000;
/** Real time, so a refused or absent broker is retried without hammering it. */
const RETRY_MS = 2_000;
/** Stop waits at most this long for the goodbye to be acknowledged. */
const STOP_GRACE_MS = 2_000;

/**
 * One virtual device speaking the device protocol over MQTT 3.1.1, like the hardware: it reports
 * its state, sleeps and wakes, and answers commands, with faults that can be injected.
 */
export class SimulatedDevice extends EventEmitter<DeviceEvents> {
  readonly id: string;
  readonly entity: string;
  readonly model: DeviceModel;
  readonly seen = new SeenIds();
  readonly rng: Random;
  readonly stats: DeviceStats = { sent: 0, commands: 0, answered: 0, connects: 0 };
  faults: Faults;
  dfuFault: DfuFault;
  private readonly images: ImageMarks;
  /** Installed an image that bricks it: after the update's reply it is never heard from again. */
  private bricked = false;
  /** The TCP link of the current connection (null on another transport), and a bricked one's. */
  private link: SeverableLink | null = null;
  private hung: SeverableLink | null = null;
  provisionFault: ProvisionFault;
  private readonly provisioning: DeviceProvisioning;
  phase: DevicePhase = 'off';
  /** Firmware updates finished, and failed, since start. */
  readonly updates: { done: number; failed: number; downloadStartedAt?: number; downloadEndedAt?: number } = {
    done: 0,
    failed: 0,
  };
  /** The final answer of a firmware update, sent once the device is back on the new image. */
  private pendingReply: ReplyMessage | null = null;
  /** Aborts a firmware download in flight when the device stops. */
  private readonly halt = new AbortController();

  private client: MqttClient | null = null;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private ticker: NodeJS.Timeout | null = null;
  /** Real time up to which the model has been advanced. */
  private modelTime = Date.now();
  private readonly timeScale: number;

  constructor(private readonly opts: DeviceOptions) {
    super();
    this.id = opts.id;
    this.entity = opts.entity;
    this.rng = seededRandom(deviceSeed(opts.seed ?? 1, opts.id));
    this.model = new DeviceModel({ ...initialStatus(this.rng), ...opts.status }, this.rng);
    this.faults = applyFaults(NO_FAULTS, opts.faults ?? {});
    this.timeScale = opts.timeScale ?? 1;
    this.dfuFault = opts.dfuFault ?? 'none';
    this.images = new ImageMarks({ fails: opts.badImages, bricks: opts.brickImages, loops: opts.loopImages });
    this.provisionFault = opts.provisionFault ?? 'none';
    this.provisioning = new DeviceProvisioning({
      id: this.id,
      entity: this.entity,
      fault: () => this.provisionFault,
      halt: this.halt.signal,
      client: () => this.client,
      setBusy: (busy) => void (this.model.provisioning = busy),
      report: (client) => this.report(client),
      publish: (client, topic, message) => this.publish(client, topic, message),
      whenOnline: () => this.whenOnline(),
      drop: () => this.drop(),
      remember: (id) => this.seen.remember(id),
      counted: () => void this.stats.commands++,
    });
  }

  /** Provisioning sessions finished (with their file counts) since start. */
  get provisions(): ReadonlyArray<{ session: string; completed: number; failed: number }> {
    return this.provisioning.done;
  }

  /** Changes the faults from now on, e.g. `setFaults({ noReply: true })`. */
  setFaults(settings: FaultSettings): void {
    this.faults = applyFaults(this.faults, settings);
  }

  /** Connects after `delayMs` (real) and lives on until `stop()`. */
  start(delayMs = 0): void {
    this.after(delayMs, () => this.connect());
  }

  /** Resolves when the device is next online (at once if it is). */
  whenOnline(): Promise<void> {
    if (this.phase === 'online') return Promise.resolve();
    return new Promise((resolve) => this.once('online', resolve));
  }

  /** Says it is going offline, disconnects cleanly and wakes after `simulatedMs`. */
  async sleep(simulatedMs: number): Promise<void> {
    const client = this.leave();
    if (!client) return;
    await this.goodbye(client);
    const asleepSince = Date.now();
    this.after(this.real(simulatedMs), () => {
      this.model.slept((Date.now() - asleepSince) * this.timeScale);
      this.modelTime = Date.now();
      this.connect();
    });
  }

  /**
   * Loses the link abruptly (the broker publishes the Last Will) and reconnects after a pause;
   * `crashed`: the device reset, so it reboots meanwhile and reports `BOOTING` when back.
   */
  drop(crashed = false): void {
    const client = this.leave();
    if (!client) return;
    client.end(true);
    this.after(this.real(crashed ? REBOOT_MS : RECONNECT_AFTER_DROP_MS), () => {
      if (crashed) this.model.rebooted();
      this.connect();
    });
  }

  /** Says it is going offline and disconnects for good. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.halt.abort();
    this.provisioning.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const client = this.leave();
    this.phase = 'off';
    this.hung?.destroy();
    if (client) await this.goodbye(client);
  }

  private connect(): void {
    this.phase = 'connecting';
    const { id, entity, secret, url } = this.opts;
    const options: IClientOptions = {
      protocolVersion: 4,
      keepalive: this.opts.keepaliveS ?? 60,
      clientId: id,
      username: id,
      password: secret,
      clean: false,
      reconnectPeriod: RETRY_MS,
      // Refused credentials may be renewed meanwhile (the demo does on every run); hardware retries too.
      reconnectOnConnackError: true,
      will: { topic: topics.state(entity, id), payload: Buffer.from(JSON.stringify(OFFLINE)), qos: 1, retain: false },
    };
    // Over TCP the socket is the device's own, so a bricked device can hang on it (severable-link.ts).
    const tcp = tcpAddress(url);
    const client = tcp
      ? new MqttClient(() => (this.link = new SeverableLink(net.createConnection(tcp))).stream, options)
      : mqtt.connect(url, options);
    this.client = client;
    client.on('connect', () => void this.online(client));
    client.on('message', (_topic, payload) => this.onCommand(client, payload));
    client.on('close', () => {
      if (this.client !== client) return;
      // Lost without meaning to (a broker restart, say): mqtt.js reconnects on its own.
      this.stopTicking();
      this.phase = 'connecting';
    });
    client.on('error', (err) => this.emit('problem', err));
  }

  private async online(client: MqttClient): Promise<void> {
    this.stats.connects++;
    const granted = await client
      .subscribeAsync([topics.deviceCommands(this.entity, this.id), topics.entityCommands(this.entity)], { qos: 1 })
      .catch((err: Error) => {
        this.emit('problem', err);
        return [];
      });
    for (const g of granted) if (g.qos === 128) this.emit('problem', new Error(`Subscription to ${g.topic} refused`));
    if (this.client !== client) return;
    this.catchUp();
    this.report(client);
    if (this.pendingReply) {
      const reply = this.pendingReply;
      this.pendingReply = null;
      const answered = this.publish(client, topics.reply(this.entity, this.id), reply).then(
        (sent) => sent && this.stats.answered++,
      );
      if (this.bricked) return void answered.then(() => this.brick(client));
    }
    // On a reboot-looping image every boot ends in a crash a while later.
    if (this.images.of(this.model.status.fwVersion) === 'loops')
      this.after(this.real(CRASH_AFTER_MS), () => this.client === client && this.drop(true));
    this.stopTicking();
    this.ticker = setInterval(() => this.tick(client), this.real((this.opts.reportEveryS ?? 60) * 1000));
    this.phase = 'online';
    this.emit('online');
  }

  private tick(client: MqttClient): void {
    const elapsed = this.catchUp();
    if (happens(this.rng, this.faults.disconnect)) return this.drop();
    this.report(client);
    // Reported first, so the console keeps the state the device fell asleep in.
    if ((this.opts.sleeps ?? true) && !this.model.updating && this.model.wantsToSleep(elapsed))
      void this.sleep(this.model.sleepLength());
  }

  private onCommand(client: MqttClient, payload: Buffer): void {
    // A delivery racing a sleep or reboot on a session that is being closed.
    if (this.client !== client) return;
    this.catchUp();
    if (this.provisioning.onMessage(client, payload)) return;
    const decision = decideCommand(payload, this, Date.now());
    if (decision.action !== 'ignore') this.stats.commands++;
    this.emit('command', decision);
    if (decision.action === 'drop-connection') return this.drop();
    if (decision.action === 'update-firmware')
      return void this.updateFirmware(client, decision.command, decision.payload);
    if (decision.action !== 'reply') return;
    void this.publish(client, topics.reply(this.entity, this.id), decision.reply).then((sent) => {
      if (!sent) return;
      this.stats.answered++;
      if (decision.then === 'allocated') this.model.allocate();
      if (decision.then === 'returned') this.model.giveBack();
      const reports = decision.then === 'report' || decision.then === 'allocated' || decision.then === 'returned';
      if (reports && this.client === client) this.report(client);
      if (decision.then === 'reboot') void this.reboot();
    });
  }

  /**
   * Marks a firmware version bad for this device, or fixed again: it fails to install it, or
   * installs it and then hangs for good (`bricks`) or keeps crashing and rebooting (`loops`).
   */
  markBadImage(version: string, bad = true, how: ImageMark = 'fails'): void {
    this.images.mark(version, bad, how);
  }

  /**
   * Bricked: the device hangs, as power lost does: nothing more is sent, not even a DISCONNECT or
   * a FIN, so the broker ends the connection when the keepalive runs out and publishes the Will.
   */
  private brick(client: MqttClient): void {
    this.stopped = true;
    this.halt.abort();
    this.provisioning.stop();
    this.stopTicking();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.leave();
    this.phase = 'off';
    this.hung = this.link;
    this.hung?.hang();
    // mqtt.js lets the link go without a word; on another transport the socket just dies.
    client.end(true);
  }

  /**
   * A firmware update as the hardware does it: reports DFU and its progress on `events`,
   * downloads (resuming with Range), checks the SHA-256, installs, reboots onto the new image and
   * then replies with the version it runs. A failure is replied at once with its reason.
   */
  private async updateFirmware(client: MqttClient, command: CommandMessage, payload: DfuPayload): Promise<void> {
    if (this.model.updating) return;
    const events = topics.events(this.entity, this.id);
    const progress = async (phase: DfuPhase, percent: number, bytes?: number) => {
      const current = this.client ?? client;
      await this.publish(current, events, { type: 'dfu', id: command.id, phase, progress: percent, bytes });
    };
    this.model.updating = true;
    this.report(client);
    await progress('accepted', 0);
    this.updates.downloadStartedAt = performance.now();
    const fetched = await fetchFirmware(payload, this.dfuFault, progress, this.halt.signal);
    const problem = fetched ?? (this.images.of(payload.version) === 'fails' ? DFU_ERRORS.badImage : null);
    this.updates.downloadEndedAt = performance.now();
    if (this.stopped) return;
    if (problem) {
      this.model.updating = false;
      this.updates.failed++;
      const current = this.client ?? client;
      this.report(current);
      await this.publish(current, topics.reply(this.entity, this.id), {
        id: command.id,
        status: 'error',
        error: problem,
      });
      return;
    }
    await progress('installing', 100);
    await progress('rebooting', 100);
    this.model.status.fwVersion = payload.version;
    this.model.updating = false;
    this.bricked = this.images.of(payload.version) === 'bricks';
    this.updates.done++;
    this.pendingReply = { id: command.id, status: 'success', data: { fw_version: payload.version } };
    await this.reboot();
  }

  private async reboot(): Promise<void> {
    const client = this.leave();
    if (!client) return;
    await client.endAsync();
    this.after(this.real(REBOOT_MS), () => {
      this.model.rebooted();
      this.connect();
    });
  }

  /** Advances the model to now; answers the simulated time that passed. */
  private catchUp(): number {
    const now = Date.now();
    const elapsed = (now - this.modelTime) * this.timeScale;
    this.modelTime = now;
    this.model.advance(elapsed);
    return elapsed;
  }

  private report(client: MqttClient): void {
    void this.publish(client, topics.state(this.entity, this.id), this.model.report(Date.now()));
  }

  /** Publishes with QoS 1; answers false when the link went away first (never rejects). */
  private async publish(client: MqttClient, topic: string, message: unknown): Promise<boolean> {
    this.stats.sent++;
    try {
      await client.publishAsync(topic, JSON.stringify(message), { qos: 1 });
      return true;
    } catch (err) {
      // A session this device left on purpose fails its in-flight messages; that is no problem.
      if (this.client === client) this.emit('problem', err as Error);
      return false;
    }
  }

  /** Detaches the current session, if any, so late events on it are ignored. */
  private leave(): MqttClient | null {
    const client = this.client;
    this.client = null;
    this.stopTicking();
    if (client) this.phase = 'away';
    return client;
  }

  /** `{"online":false}` and a clean DISCONNECT when connected; otherwise just gives up the link. */
  private async goodbye(client: MqttClient): Promise<void> {
    if (client.connected) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)));
      const polite = this.publish(client, topics.state(this.entity, this.id), OFFLINE)
        .then(() => client.endAsync())
        .catch(() => undefined);
      await Promise.race([polite, timeout]);
      clearTimeout(timer);
    }
    // A broker that does not answer in time, or a link that never came up: give it up.
    if (!client.disconnected) client.end(true);
  }

  private stopTicking(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  /** Runs `fn` in `ms` unless the device is stopped by then (or already is). */
  private after(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private real(simulatedMs: number): number {
    return simulatedMs / this.timeScale;
  }
}
