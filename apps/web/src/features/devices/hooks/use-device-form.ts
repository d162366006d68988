import { useState } from 'react';
import { fieldErrorsFromApi, hasFieldErrors, type FieldErrors } from '@/lib/forms/field-errors.ts';
import { readCertificate } from '../utils/certificate-file.ts';
import { DEVICE_FIELDS, type DeviceField, type DeviceFormValues } from '../utils/device-form.ts';

type TextField = 'name' | 'description' | 'group' | 'version_id' | 'mac_1' | 'mac_2' | 'entity';

/**
 * State and validation of the device create and edit forms (fleet §5). Errors appear on the
 * first submit, then follow the input so a fixed field clears at once; a save's 400/409
 * details land under their fields.
 */
export function useDeviceForm(
  initial: DeviceFormValues,
  validate: (values: DeviceFormValues) => FieldErrors<DeviceField>,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<DeviceField>>({});
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [submitted, setSubmitted] = useState(false);

  const update = (next: DeviceFormValues) => {
    setValues(next);
    if (submitted) setErrors(validate(next));
  };

  return {
    values,
    /** The chosen certificate file, shown by the file input. */
    certificateFile: file,
    errors: { ...errors, X509_certificate: fileError ?? errors.X509_certificate },
    setText: (field: TextField, value: string) => update({ ...values, [field]: value }),
    setRemoveCertificate: (remove: boolean) => {
      setFile(null);
      setFileError(undefined);
      update({ ...values, removeCertificate: remove, certificate: null });
    },
    /** Reads the chosen certificate file; a wrong type or size is reported under the field. */
    async setCertificateFile(chosen: File | null) {
      setFile(chosen);
      setFileError(undefined);
      if (chosen === null) return update({ ...values, certificate: null });
      const read = await readCertificate(chosen);
      if ('error' in read) {
        setFileError(read.error);
        update({ ...values, certificate: null });
      } else update({ ...values, certificate: read.value, removeCertificate: false });
    },
    /** Validates everything; true when the form may be sent. */
    check(): boolean {
      setSubmitted(true);
      const found = validate(values);
      setErrors(found);
      return !hasFieldErrors(found) && fileError === undefined;
    },
    /** Shows a failed save's field messages; true when there were any. */
    showServerErrors(error: unknown): boolean {
      const found = fieldErrorsFromApi(error, DEVICE_FIELDS, 'name');
      setErrors(found);
      return hasFieldErrors(found);
    },
  };
}

export type DeviceForm = ReturnType<typeof useDeviceForm>;
