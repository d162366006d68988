import { useEffect, useRef, useState } from 'react';
import { fileTooBig } from '@fleet/shared/constants';
import { MESSAGES } from '@fleet/shared/validation';
import { useQueryClient } from '@tanstack/react-query';
import type { DeviceCreateDocument } from '@fleet/shared/schemas/device';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { deviceKeys } from '@/lib/api/device-paths.ts';
import { addRows, countResults, type BulkResult } from '../utils/bulk-add.ts';
import { checkRows, rowDocument, type BulkRow } from '../utils/bulk-rows.ts';
import { issuedDevices, type IssuedDevice } from '../utils/credentials-csv.ts';
import { parseDeviceCsv } from '../utils/device-csv.ts';

/** The spec's bulk upload texts (fleet §5, §8). */
export const BULK_TEXT = {
  parseFailed: 'Failed to parse CSV file. Please check the format.',
  addFailed: 'Failed to add devices. Please try again.',
  added: (n: number) => (n === 1 ? '1 device added successfully.' : `${n} devices added successfully.`),
  incomplete: 'Please upload a valid CSV and enter the manufacturing type.',
} as const;

/** Larger than any file of CSV_MAX_ROWS reasonable rows; stops a wrong file being read into memory. */
const CSV_MAX_BYTES = 5_000_000;

/** `done`: every row was added; the credentials are offered before the list opens. */
type Phase = 'editing' | 'adding' | 'done';

interface BulkUploadOptions {
  landlord: boolean;
  /**
   * Registers one device without a notice of its own (the route passes the devices' create
   * call); answers its MQTT credentials, which the server shows this once.
   */
  create(document: DeviceCreateDocument): Promise<{ mqtt?: { username: string; password: string } } | void>;
}

/**
 * The bulk upload (fleet §2, §4, §5): reads and checks the CSV in the browser, adds the valid
 * rows 4 at a time with progress, and keeps every row's result and every added device's
 * credentials (for the whole visit: a new file does not drop them). When all rows are added the
 * phase is `done` (the screen offers the credentials, then the list); otherwise the form stays,
 * usable again, with the results.
 */
export function useBulkUpload({ landlord, create }: BulkUploadOptions) {
  const queryClient = useQueryClient();
  const [type, setType] = useState('');
  const [entity, setEntity] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState<BulkRow[] | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [phase, setPhase] = useState<Phase>('editing');
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [results, setResults] = useState<BulkResult[] | null>(null);
  const [issued, setIssued] = useState<IssuedDevice[]>([]);
  const stopper = useRef<AbortController | null>(null);
  // Leaving the screen stops sending; calls in flight finish.
  useEffect(() => () => stopper.current?.abort(), []);

  const chooseFile = async (chosen: File | null) => {
    setFile(chosen);
    setRows(null);
    setResults(null);
    setFileError(null);
    if (chosen === null) return;
    if (chosen.size > CSV_MAX_BYTES) return setFileError(fileTooBig(CSV_MAX_BYTES));
    const parsed = parseDeviceCsv(await chosen.text());
    if (parsed.ok) return setRows(checkRows(parsed.devices));
    if (parsed.kind === 'format') {
      notifyError(BULK_TEXT.parseFailed);
      setFileError(`${BULK_TEXT.parseFailed} ${parsed.reason}`);
    } else setFileError(parsed.reason);
  };

  const run = async (toSend: BulkRow[]) => {
    const controller = new AbortController();
    stopper.current = controller;
    setPhase('adding');
    const outcome = await addRows(toSend, (row) => create(rowDocument(row, landlord ? entity : undefined)), {
      signal: controller.signal,
      onProgress: (done, total) => setProgress({ done, total }),
    });
    stopper.current = null;
    void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    const fresh = issuedDevices(outcome);
    if (fresh.length > 0) setIssued((before) => [...before, ...fresh]);
    return outcome;
  };

  const report = (all: BulkResult[], addedNow: number) => {
    const counts = countResults(all);
    setResults(all);
    setPhase('editing');
    if (counts.failed > 0) return notifyError(BULK_TEXT.addFailed);
    if (counts.stopped > 0) return notifyWarning(`Stopped: ${addedNow} added, ${counts.stopped} not sent.`);
    if (addedNow > 0) notifySuccess(BULK_TEXT.added(addedNow));
    if (counts.invalid === 0) setPhase('done');
  };

  const sendable = rows?.filter((row) => row.issue === undefined) ?? [];
  return {
    type,
    setType,
    entity,
    setEntity,
    file,
    chooseFile: (chosen: File | null) => void chooseFile(chosen),
    rows,
    sendable: sendable.length,
    fileError,
    errors: {
      type: submitted && type.trim() === '' ? MESSAGES.required : undefined,
      entity: submitted && landlord && entity === '' ? MESSAGES.required : undefined,
    },
    adding: phase === 'adding',
    /** Every row was added: the success screen offers the credentials, then the list. */
    done: phase === 'done',
    progress,
    results,
    /** Every device added on this visit with the credentials its create answered. */
    issued,
    async submit() {
      setSubmitted(true);
      if (type.trim() === '' || sendable.length === 0) return notifyWarning(BULK_TEXT.incomplete);
      if (landlord && entity === '') return;
      const all = await run(rows ?? []);
      report(all, countResults(all).created);
    },
    /** Sends again only the rows that failed or were never sent; the rest keep their result. */
    async retry() {
      if (!results) return;
      const again = results.filter((r) => r.status === 'failed' || r.status === 'stopped').map((r) => r.row);
      const retried = new Map((await run(again)).map((r) => [r.row, r]));
      report(
        results.map((r) => retried.get(r.row) ?? r),
        [...retried.values()].filter((r) => r.status === 'created').length,
      );
    },
    stop: () => stopper.current?.abort(),
  };
}

export type BulkUpload = ReturnType<typeof useBulkUpload>;
