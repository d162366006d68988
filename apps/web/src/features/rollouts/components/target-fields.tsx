import { Group, Select, TextInput } from '@mantine/core';
import type { ChoiceSources, Choices } from '../utils/choice-sources.ts';
import type { TargetKind } from '../utils/rollout-form-state.ts';

const KINDS: Array<{ value: TargetKind; label: string }> = [
  { value: 'entity', label: 'Whole entity' },
  { value: 'view', label: 'Saved view' },
  { value: 'group', label: 'Group' },
  { value: 'site', label: 'Site' },
  { value: 'filter', label: 'Filter' },
];

interface TargetFieldsProps {
  kind: TargetKind;
  name: string;
  query: string;
  error?: string;
  sources: ChoiceSources;
  onChange(target: { kind: TargetKind; name: string; query: string }): void;
}

/** Which devices: the whole entity, a shared saved view, a group, a site, or a device-list filter. */
export function TargetFields({ kind, name, query, error, sources, onChange }: TargetFieldsProps) {
  const pick = (n: string) => onChange({ kind, name: n, query });
  return (
    <Group gap="sm" align="start">
      <Select
        label="Target"
        data={KINDS}
        value={kind}
        allowDeselect={false}
        onChange={(k) => onChange({ kind: (k as TargetKind | null) ?? 'entity', name: '', query })}
        w={180}
        error={kind === 'entity' ? error : undefined}
      />
      {kind === 'group' && <GroupChoice sources={sources} value={name} error={error} onChange={pick} />}
      {kind === 'site' && <SiteChoice sources={sources} value={name} error={error} onChange={pick} />}
      {kind === 'view' && <ViewChoice sources={sources} value={name} error={error} onChange={pick} />}
      {kind === 'filter' && (
        <TextInput
          label="Device filter"
          description="The device list's query, e.g. group=hall_a&battery=Low"
          value={query}
          error={error}
          onChange={(e) => onChange({ kind, name, query: e.currentTarget.value })}
          w={360}
        />
      )}
    </Group>
  );
}

interface ChoiceProps {
  sources: ChoiceSources;
  value: string;
  error?: string;
  onChange(name: string): void;
}

const GroupChoice = ({ sources, ...p }: ChoiceProps) => (
  <ChoiceSelect label="Group" what="groups" list={sources.useGroups()} {...p} />
);
const SiteChoice = ({ sources, ...p }: ChoiceProps) => (
  <ChoiceSelect label="Site" what="sites" list={sources.useSites()} {...p} />
);
const ViewChoice = ({ sources, ...p }: ChoiceProps) => (
  <ChoiceSelect label="Saved view" what="shared views" list={sources.useSharedViews()} {...p} />
);

interface ChoiceSelectProps extends Omit<ChoiceProps, 'sources'> {
  label: string;
  /** What the list is of, for its placeholder: 'groups'. */
  what: string;
  list: Choices;
}

/** A required choice from a list, saying when it is loading, failed or empty. */
export function ChoiceSelect({
  label,
  what,
  list,
  value,
  error,
  onChange,
  ...rest
}: ChoiceSelectProps & { w?: number; description?: string }) {
  const placeholder = list.loading
    ? `Loading ${what}…`
    : list.failed
      ? `The ${what} could not be loaded`
      : list.data?.length === 0
        ? `No ${what} yet`
        : 'Choose';
  return (
    <Select
      label={label}
      required
      searchable
      placeholder={placeholder}
      nothingFoundMessage="Nothing matches"
      data={list.data ?? []}
      value={value || null}
      error={error}
      onChange={(v) => onChange(v ?? '')}
      w={rest.w ?? 240}
      description={rest.description}
    />
  );
}
