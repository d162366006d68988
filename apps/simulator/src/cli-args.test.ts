import { describe, expect, it } from 'vitest';
import { parseCli, parseCredentials } from './cli-args.ts';

describe('simulator command line', () => {
  it('reads a credentials file path, faults and the knobs', () => {
    const cli = parseCli(
      ['--credentials', 'devs.json', '--seed', '7', '--time-scale', '20', '--fault-no-reply', '0.05', '--no-sleep'],
      {},
    );
    expect(cli).toMatchObject({
      devices: { file: 'devs.json' },
      statusEveryS: 10,
      fleet: {
        url: 'mqtt://127.0.0.1:1883',
        seed: 7,
        timeScale: 20,
        sleeps: false,
        faults: { noReply: 0.05, error: 0, disconnect: 0 },
      },
    });
  });

  it('marks firmware versions bad: failing to install, bricking or reboot-looping the device after it installs', () => {
    const cli = parseCli(
      [
        '--credentials',
        'f',
        '--bad-image',
        '2.0.0',
        '--bad-image',
        '2.0.1',
        '--brick-image',
        '3.0.0',
        '--loop-image',
        '4.0.0',
      ],
      {},
    );
    expect(cli).toMatchObject({
      fleet: { badImages: ['2.0.0', '2.0.1'], brickImages: ['3.0.0'], loopImages: ['4.0.0'] },
    });
    expect(parseCli(['--credentials', 'f'], {})).toMatchObject({
      fleet: { badImages: [], brickImages: [], loopImages: [] },
    });
  });

  it('takes devices as flags and the broker from the environment', () => {
    const cli = parseCli(['--entity', 'demo', '--device', '240ac4de0000:s3cr:et'], { MQTT_PORT: '1999' });
    expect(cli).toMatchObject({
      devices: { list: [{ name: '240ac4de0000', entity: 'demo', password: 's3cr:et' }] },
      fleet: { url: 'mqtt://127.0.0.1:1999' },
    });
  });

  it('refuses what it cannot use, saying why', () => {
    expect(() => parseCli([], {})).toThrow(/--credentials/);
    expect(() => parseCli(['--credentials', 'f', '--fault-error', '2'], {})).toThrow(/--fault-error 2/);
    expect(() => parseCli(['--credentials', 'f', '--bogus'], {})).toThrow(/bogus/);
  });

  it('checks a credentials file entry by entry', () => {
    expect(parseCredentials([{ name: 'a', entity: 'b', password: 'c', extra: 1 }])).toEqual([
      { name: 'a', entity: 'b', password: 'c' },
    ]);
    expect(() => parseCredentials({})).toThrow(/array/);
    expect(() => parseCredentials([{ name: 'a' }])).toThrow(/entry 0/);
  });
});
