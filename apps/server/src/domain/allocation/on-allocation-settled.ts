import type { SettleHandler } from '../command/settle-handlers.ts';
import { closeRefusedAllocation } from './close-refused.ts';

/** An `allocate` command the device answered with an error: the allocation closes as refused. */
export const onAllocationSettled: SettleHandler = {
  types: ['allocate'],
  async settled({ db, device, row }) {
    if (row.state === 'failed') await closeRefusedAllocation(db, device, row.payload, row.error);
  },
};
