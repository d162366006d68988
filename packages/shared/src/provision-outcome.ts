import type { Counters } from './provision.ts';

/** How a finished session went (core §4): every file completed, every file failed, or some of each. */
export type ProvisionOutcome = 'success' | 'partial' | 'failed';

/** The outcome of a session whose device finished: all completed → success, all failed → failed, else partial. */
export function provisionOutcome(
  c: Pick<Counters, 'total_files' | 'completed_files' | 'failed_files'>,
): ProvisionOutcome {
  if (c.completed_files === c.total_files) return 'success';
  if (c.failed_files === c.total_files) return 'failed';
  return 'partial';
}
