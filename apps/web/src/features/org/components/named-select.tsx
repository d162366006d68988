import { Select } from '@mantine/core';

interface NamedSelectProps {
  label: string;
  /** What the list is of, for its messages: 'sites'. */
  what: string;
  choices: readonly { name: string; description?: string }[] | undefined;
  loading: boolean;
  /** The list could not be read (e.g. no right to read it). */
  failed?: boolean;
  value: string;
  error?: string;
  readOnly?: boolean;
  onChange(name: string): void;
}

/** An optional choice among the entity's sites, kiosks or groups; clearing it means none. */
export function NamedSelect(props: NamedSelectProps) {
  const { label, what, choices, loading, failed, value, error, readOnly, onChange } = props;
  const placeholder = loading
    ? `Loading ${what}…`
    : failed
      ? `The ${what} could not be loaded`
      : choices?.length === 0
        ? `No ${what} yet`
        : 'None';
  // A value the list does not hold (e.g. unreadable list) still shows.
  const data = [...(choices ?? []).map((c) => c.name)];
  if (value && !data.includes(value)) data.unshift(value);
  return (
    <Select
      label={label}
      searchable
      clearable={!readOnly}
      readOnly={readOnly}
      disabled={loading || (failed && !value)}
      placeholder={placeholder}
      nothingFoundMessage={`No ${what.replace(/s$/, '')} matches`}
      data={data}
      value={value || null}
      error={error}
      comboboxProps={{ withinPortal: true }}
      clearButtonProps={{ 'aria-label': `Clear ${label}` }}
      onChange={(name) => onChange(name ?? '')}
    />
  );
}
