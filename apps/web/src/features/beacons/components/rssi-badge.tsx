import { RSSI_COLORS, rssiQuality } from '@fleet/shared/beacon-constants';
import { TonePill } from './tone-pill.tsx';

/** The signal strength, coloured by fleet §9: above -60 good, above -70 warning, else bad. */
export function RssiBadge({ rssi }: { rssi: number }) {
  const quality = rssiQuality(rssi);
  return (
    <TonePill tone={RSSI_COLORS[quality]} label={`RSSI ${rssi} dBm, ${quality} signal`}>
      {rssi} dBm
    </TonePill>
  );
}
