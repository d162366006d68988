import { StateReportSchema, type StateReport } from '@fleet/shared/protocol';
import type { SettleHandler } from './settle-handlers.ts';

/**
 * `refresh` and `dfu` replies carry the device's state: it goes where state reports go
 * (telemetry), as if the device had published it.
 */
export const stateInReply = (report: (device: string, state: StateReport) => void): SettleHandler => ({
  types: ['refresh', 'dfu'],
  settled({ device, reply }) {
    if (!reply.data) return;
    const state = StateReportSchema.safeParse(reply.data);
    if (state.success) report(device, state.data);
  },
});
