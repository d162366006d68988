import { formatMedication, type Medication } from '@fleet/shared/schemas/beacon';

/** A dose is due from its time until this long after (docs/decisions.md, "Beacon reminders"). */
export const DUE_WINDOW_MS = 60 * 60_000;

export interface DueDose {
  /** The local calendar day the dose belongs to, YYYY-MM-DD. */
  date: string;
  /** HH:MM. */
  time: string;
  /** Every medication at that time, formatted. */
  medications: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * The medication times due at `now` in the server's time zone: from HH:MM that day until
 * DUE_WINDOW_MS later, yesterday's late doses included when the window crosses midnight.
 * Medications sharing a time are one dose.
 */
export function dueDoses(medications: Medication[], now: Date, windowMs = DUE_WINDOW_MS): DueDose[] {
  const byKey = new Map<string, DueDose>();
  for (const m of medications) {
    const [h, min] = m.time.split(':').map(Number) as [number, number];
    for (const offset of [0, -1]) {
      const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset, h, min);
      const since = now.getTime() - at.getTime();
      if (since < 0 || since >= windowMs) continue;
      const key = `${localDay(at)} ${m.time}`;
      const dose = byKey.get(key) ?? { date: localDay(at), time: m.time, medications: [] };
      dose.medications.push(formatMedication(m));
      byKey.set(key, dose);
    }
  }
  return [...byKey.values()];
}
