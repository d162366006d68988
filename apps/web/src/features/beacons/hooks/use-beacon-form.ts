import { useMemo, useState } from 'react';
import {
  BEACON_DEFAULT_DOSE_TIME,
  BEACON_DEFAULT_RSSI_THRESHOLD,
  BEACON_MEDICATIONS_MAX,
  BEACON_MEDICATIONS_MIN,
} from '@fleet/shared/beacon-constants';
import { BeaconConfigCreateSchema, type BeaconConfig, type Medication } from '@fleet/shared/schemas/beacon';

export interface BeaconFormValues {
  beacon_mac: string;
  patient_name: string;
  room_number: string;
  medications: Medication[];
  rssi_threshold: number;
  active: boolean;
  notes: string;
}

const newMedication = (): Medication => ({ name: '', dosage: '', time: BEACON_DEFAULT_DOSE_TIME });

const EMPTY: BeaconFormValues = {
  beacon_mac: '',
  patient_name: '',
  room_number: '',
  medications: [newMedication()],
  rssi_threshold: BEACON_DEFAULT_RSSI_THRESHOLD,
  active: true,
  notes: '',
};

const fromConfig = (c: BeaconConfig): BeaconFormValues => ({
  beacon_mac: c.beacon_mac,
  patient_name: c.patient_name,
  room_number: c.room_number ?? '',
  medications: c.medications.map((m) => ({ ...m })),
  rssi_threshold: c.rssi_threshold,
  active: c.active,
  notes: c.notes,
});

const FIELD_LABELS: Record<string, string> = {
  beacon_mac: 'Beacon MAC',
  patient_name: 'Patient Name',
  room_number: 'Room Number',
  medications: 'Medications',
  rssi_threshold: 'RSSI Threshold',
  notes: 'Notes',
};

/** The field an error path names, as its label says it: `medications.0.dosage` is 'Medication 1 dosage'. */
export function fieldLabel(path: string): string {
  const [field = '', index, part] = path.split('.');
  if (field === 'medications' && index !== undefined) return `Medication ${Number(index) + 1}${part ? ` ${part}` : ''}`;
  return FIELD_LABELS[field] ?? field;
}

/**
 * The beacon form (fleet §5) in add or edit mode: valid only with a MAC, a patient name and 1 to 5
 * medications each with name, dosage and time; errors keyed by field path (`medications.0.dosage`).
 */
export function useBeaconForm() {
  const [values, setValues] = useState<BeaconFormValues>(EMPTY);
  const [editing, setEditing] = useState<BeaconConfig | null>(null);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  const errors = useMemo(() => {
    const parsed = BeaconConfigCreateSchema.safeParse(values);
    const found: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) found[issue.path.join('.')] ??= issue.message;
    return found;
  }, [values]);

  const set = <K extends keyof BeaconFormValues>(key: K, value: BeaconFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setServerErrors({});
  };
  const setMedication = (index: number, change: Partial<Medication>) =>
    set(
      'medications',
      values.medications.map((m, i) => (i === index ? { ...m, ...change } : m)),
    );

  return {
    values,
    editing,
    valid: Object.keys(errors).length === 0,
    /** The fields still wrong or empty, by label, in the form's order: why the submit is disabled. */
    incomplete: Object.keys(errors).map(fieldLabel),
    /** The message to show under a field: after it was left, or the server's. */
    errorOf: (path: string) => serverErrors[path] ?? (touched.has(path) ? errors[path] : undefined),
    touch: (path: string) => setTouched((t) => new Set(t).add(path)),
    set,
    setMedication,
    canAddMedication: values.medications.length < BEACON_MEDICATIONS_MAX,
    canRemoveMedication: values.medications.length > BEACON_MEDICATIONS_MIN,
    addMedication: () => set('medications', [...values.medications, newMedication()]),
    removeMedication: (index: number) =>
      set(
        'medications',
        values.medications.filter((_, i) => i !== index),
      ),
    edit(config: BeaconConfig) {
      setEditing(config);
      setValues(fromConfig(config));
      setTouched(new Set());
      setServerErrors({});
    },
    reset() {
      setEditing(null);
      setValues(EMPTY);
      setTouched(new Set());
      setServerErrors({});
    },
    setServerErrors,
  };
}

export type BeaconForm = ReturnType<typeof useBeaconForm>;
