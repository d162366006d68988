import { describe, expect, it } from 'vitest';
import { BeaconWard, rssiAt } from './beacon-ward.ts';

const rooms = ['101', '102', '103'].map((room, i) => ({ room, gateway: `gw${i}` }));

describe('BeaconWard', () => {
  it('follows the path-loss model: -59 dBm at 1 m, weaker with distance', () => {
    expect(rssiAt(1)).toBe(-59);
    expect(rssiAt(4)).toBeLessThan(rssiAt(2));
    expect(rssiAt(10)).toBeGreaterThan(-100);
  });

  it('lets the gateway of the patient’s room hear them loudest', () => {
    const ward = new BeaconWard(rooms, ['aaaaaaaaaaaa'], 7, 0);
    let own = 0;
    let louder = 0;
    for (let i = 0; i < 200; i++) {
      const heard = ward.tick();
      const best = heard.reduce((a, b) => (b.rssi > a.rssi ? b : a));
      const room = ward.patients[0]!.room;
      if (best.gateway === rooms[room]!.gateway) own++;
      if (heard.filter((s) => s.gateway === rooms[room]!.gateway).every((s) => s.rssi > -80)) louder++;
    }
    expect(own).toBeGreaterThan(190);
    expect(louder).toBeGreaterThan(190);
  });

  it('moves patients between rooms now and then, the same way for the same seed', () => {
    const a = new BeaconWard(rooms, ['a1', 'a2'], 3, 0.2);
    const b = new BeaconWard(rooms, ['a1', 'a2'], 3, 0.2);
    const visited = new Set<number>();
    for (let i = 0; i < 100; i++) {
      expect(a.tick()).toEqual(b.tick());
      visited.add(a.patients[0]!.room);
    }
    expect(visited.size).toBe(3);
  });
});
