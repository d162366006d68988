import { FILE_LIMITS, fileTooBig } from '@fleet/shared/constants';
import type { DataviewWithContent } from '@fleet/shared/schemas/dataview';
import { MESSAGES } from '@fleet/shared/validation';
import { ApiError } from '@/lib/api/api-error.ts';
import type { FieldErrors } from '@/lib/forms/field-errors.ts';
import { parseContentText } from './content-file.ts';

export const DATAVIEW_FIELDS = ['name', 'description', 'version', 'owner', 'authorized_accounts', 'content'] as const;
export type DataviewField = (typeof DATAVIEW_FIELDS)[number];

export interface DataviewFormValues {
  name: string;
  description: string;
  version: string;
  owner: string;
  authorized: string[];
  /** The content as typed or loaded from a file; empty means the default content. */
  contentText: string;
}

export function initialValues(dataview?: DataviewWithContent, owner = ''): DataviewFormValues {
  if (!dataview)
    return { name: '', description: '', version: '', owner, authorized: owner ? [owner] : [], contentText: '' };
  return {
    name: dataview.name,
    description: dataview.description,
    version: dataview.version,
    owner: dataview.owner ?? '',
    authorized: dataview.authorized_accounts,
    contentText: JSON.stringify(dataview.content, null, 2),
  };
}

/** The form's own checks with the spec's messages (fleet §5); the server checks the same and more. */
export function validateDataview(v: DataviewFormValues): FieldErrors<DataviewField> {
  const errors: FieldErrors<DataviewField> = {};
  if (v.name.trim() === '') errors.name = MESSAGES.required;
  else if (!/^[A-Za-z0-9_]+$/.test(v.name.trim())) errors.name = MESSAGES.apiName;
  if (v.version.trim() === '') errors.version = MESSAGES.required;
  if (v.owner === '') errors.owner = MESSAGES.required;
  const parsed = parseContentText(v.contentText);
  if ('error' in parsed) errors.content = parsed.error;
  else if (new TextEncoder().encode(v.contentText).length > FILE_LIMITS.dataview)
    errors.content = fileTooBig(FILE_LIMITS.dataview);
  return errors;
}

/** The document to send: the owner always among the authorised accounts; empty content stays empty. */
export function toDocument(v: DataviewFormValues) {
  const parsed = parseContentText(v.contentText);
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    version: v.version.trim(),
    owner: v.owner,
    authorized_accounts: [...new Set([v.owner, ...v.authorized])].filter(Boolean),
    content: 'value' in parsed ? (parsed.value ?? null) : null,
  };
}

/** Server answers under the matching field: content issues (`document.content.layout…`, 413) under content. */
export function dataviewErrorsFromApi(error: unknown): FieldErrors<DataviewField> {
  const errors: FieldErrors<DataviewField> = {};
  if (!(error instanceof ApiError)) return errors;
  if (error.status === 413) errors.content = error.userMessage;
  for (const [key, messages] of Object.entries(error.details ?? {})) {
    const parts = key.split('.');
    const field = DATAVIEW_FIELDS.find((f) => parts.includes(f));
    if (!field || !messages[0]) continue;
    const within = parts.slice(parts.indexOf(field) + 1).join('.');
    errors[field] ??= within ? `${within}: ${messages[0]}` : messages[0];
  }
  if (error.status === 409 && !errors.name) errors.name = error.userMessage;
  return errors;
}
