import { useCallback, useState, type FormEvent } from 'react';
import type { AccessValue, Subtype } from '@fleet/shared/constants';
import { fieldErrorsFromApi, hasFieldErrors, type FieldErrors } from '@/lib/forms/field-errors.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { useCreateAccount } from '../api/create-account.ts';
import { buildAccountCreate, type AccountCreateValues } from '../components/account-payload.ts';
import { toggleAccess } from '../components/access-toggle.ts';
import { CREATE_FIELDS, validateAccountCreate, type CreateField } from '../components/validate-account.ts';

export interface AccountCreateOptions {
  /** The landlord's form: plain path, entity selector and access section. */
  landlord: boolean;
  defaultSubtype: Subtype;
  onCreated(): void;
}

type TextField = 'name' | 'email' | 'password' | 'confirmation' | 'entity';

/** State, validation (core §5) and submit of an account create form. */
export function useAccountCreateForm({ landlord, defaultSubtype, onCreated }: AccountCreateOptions) {
  const [values, setValues] = useState<AccountCreateValues>({
    name: '',
    email: '',
    password: '',
    confirmation: '',
    subtype: defaultSubtype,
    entity: '',
    access: [],
  });
  const [errors, setErrors] = useState<FieldErrors<CreateField>>({});
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateAccount(landlord);
  // Stable, so the form can call it from an effect when the entity list arrives.
  const defaultEntity = useCallback(
    (name: string) => setValues((v) => (v.entity === '' ? { ...v, entity: name } : v)),
    [],
  );

  const update = (next: AccountCreateValues) => {
    setValues(next);
    // Errors appear on submit, then follow the input so a fixed field clears at once.
    if (submitted) setErrors(validateAccountCreate(next, landlord));
  };

  return {
    values,
    errors,
    pending: create.isPending,
    setText: (field: TextField, value: string) => update({ ...values, [field]: value }),
    setSubtype: (subtype: Subtype) => update({ ...values, subtype }),
    toggleAccess: (value: AccessValue, checked: boolean) =>
      update({ ...values, access: toggleAccess(values.access, value, checked) }),
    /** Fills an empty entity once the list arrives: the selector defaults to the first entity. */
    defaultEntity,
    onSubmit(event: FormEvent<HTMLFormElement>) {
      event.preventDefault();
      setSubmitted(true);
      const found = validateAccountCreate(values, landlord);
      setErrors(found);
      if (hasFieldErrors(found)) return;
      create.mutate(buildAccountCreate(values, landlord), {
        onSuccess: (status) => {
          notifySuccess(status);
          onCreated();
        },
        // The client showed the red notice; the form is usable again and the error logged (core §8).
        onError: (error) => {
          console.error('Account not created:', error);
          setErrors(fieldErrorsFromApi(error, CREATE_FIELDS, 'name'));
        },
      });
    },
  };
}
