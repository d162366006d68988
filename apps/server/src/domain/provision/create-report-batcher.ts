import { LockedReports } from './locked-reports.ts';
import type { ReportBatcher, ReportOptions } from './report-batcher.ts';
import { SoleReports } from './sole-reports.ts';

/** The report batcher of the mode this instance runs in, chosen once (report-batcher.ts). */
export function createReportBatcher(o: ReportOptions): ReportBatcher {
  return o.sole ? new SoleReports(o) : new LockedReports(o);
}
