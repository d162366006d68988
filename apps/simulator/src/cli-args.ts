import { parseArgs } from 'node:util';
import type { FleetOptions, DeviceCredentials } from './fleet.ts';
import { DFU_FAULTS, type DfuFault } from './dfu.ts';

export const USAGE = `Usage: node apps/simulator/dist/cli.js [options]

Devices (one of):
  --credentials <file>      JSON [{"name", "entity", "password"}], e.g. what npm run demo writes
  --entity <name> --device <id>:<secret> [--device …]

Options:
  --url <url>               broker (default $MQTT_URL, else mqtt://127.0.0.1:$MQTT_PORT or 1883)
  --seed <n>                replay the same fleet behaviour (default 1)
  --time-scale <x>          simulated seconds per real second (default 1)
  --report-every <s>        simulated seconds between state reports (default 60)
  --no-sleep                devices never sleep
  --fault-no-reply <p>      probability that a command gets no reply
  --fault-error <p>         probability that a command is answered with an error
  --fault-disconnect <p>    probability, per command and per report, that the link drops
  --fault-refuse-kiosk <p>  probability that an allocate or return command is refused
  --fault-dfu <kind>        how firmware updates go wrong: none, flaky-link (resumes), download-failed, bad-hash, refuse
  --bad-image <version>     devices fail to install this firmware version (repeatable; an image is for one device type)
  --brick-image <version>   devices install this version, answer, then hang: never heard from again (repeatable)
  --loop-image <version>    devices install this version, answer, then crash and reboot again and again (repeatable)
  --status-every <s>        real seconds between status lines (default 10; 0 for none)
  --help`;

export interface CliOptions {
  fleet: Omit<FleetOptions, 'devices'>;
  /** A credentials file to read, or devices given on the command line. */
  devices: { file: string } | { list: DeviceCredentials[] };
  statusEveryS: number;
}

/** Reads the command line; throws an Error whose message is fit to print above the usage. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      credentials: { type: 'string' },
      entity: { type: 'string' },
      device: { type: 'string', multiple: true },
      url: { type: 'string' },
      seed: { type: 'string' },
      'time-scale': { type: 'string' },
      'report-every': { type: 'string' },
      'no-sleep': { type: 'boolean' },
      'fault-no-reply': { type: 'string' },
      'fault-error': { type: 'string' },
      'fault-disconnect': { type: 'string' },
      'fault-dfu': { type: 'string' },
      'fault-refuse-kiosk': { type: 'string' },
      'bad-image': { type: 'string', multiple: true },
      'brick-image': { type: 'string', multiple: true },
      'loop-image': { type: 'string', multiple: true },
      'status-every': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';

  let devices: CliOptions['devices'];
  if (values.credentials) devices = { file: values.credentials };
  else if (values.device?.length && values.entity) {
    const entity = values.entity;
    devices = { list: values.device.map((d) => deviceFlag(d, entity)) };
  } else throw new Error('Give --credentials <file>, or --entity and at least one --device <id>:<secret>');

  const url = values.url ?? env.MQTT_URL ?? `mqtt://127.0.0.1:${env.MQTT_PORT ?? 1883}`;
  return {
    devices,
    statusEveryS: num(values['status-every'], 'status-every', 10, 0),
    fleet: {
      url,
      seed: num(values.seed, 'seed', 1, 0, 2 ** 32 - 1),
      timeScale: num(values['time-scale'], 'time-scale', 1, 0.001),
      reportEveryS: num(values['report-every'], 'report-every', 60, 0.001),
      sleeps: !values['no-sleep'],
      dfuFault: dfuFault(values['fault-dfu']),
      badImages: values['bad-image'] ?? [],
      brickImages: values['brick-image'] ?? [],
      loopImages: values['loop-image'] ?? [],
      faults: {
        noReply: num(values['fault-no-reply'], 'fault-no-reply', 0, 0, 1),
        error: num(values['fault-error'], 'fault-error', 0, 0, 1),
        disconnect: num(values['fault-disconnect'], 'fault-disconnect', 0, 0, 1),
        refuseKiosk: num(values['fault-refuse-kiosk'], 'fault-refuse-kiosk', 0, 0, 1),
      },
    },
  };
}

/** Validates a credentials file's content: `[{name, entity, password}]`. */
export function parseCredentials(json: unknown): DeviceCredentials[] {
  if (!Array.isArray(json)) throw new Error('The credentials file must hold a JSON array');
  return json.map((c: unknown, i) => {
    const { name, entity, password } = (c ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof entity !== 'string' || typeof password !== 'string') {
      throw new Error(`Credentials entry ${i} needs string name, entity and password`);
    }
    return { name, entity, password };
  });
}

function dfuFault(raw: string | undefined): DfuFault {
  if (raw === undefined) return 'none';
  if (!(DFU_FAULTS as readonly string[]).includes(raw))
    throw new Error(`--fault-dfu ${raw}: expected one of ${DFU_FAULTS.join(', ')}`);
  return raw as DfuFault;
}

function deviceFlag(flag: string, entity: string): DeviceCredentials {
  const colon = flag.indexOf(':');
  if (colon < 1) throw new Error(`--device ${flag}: expected <id>:<secret>`);
  return { name: flag.slice(0, colon), entity, password: flag.slice(colon + 1) };
}

function num(raw: string | undefined, flag: string, fallback: number, min: number, max = Infinity): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new Error(`--${flag} ${raw}: expected a number from ${min} to ${max}`);
  return n;
}
