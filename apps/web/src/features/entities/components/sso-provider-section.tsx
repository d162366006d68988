import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ACCESS_VALUES } from '@fleet/shared/constants';
import {
  SSO_CREATE_SUBTYPES,
  SsoProviderRequestSchema,
  type SsoProvider,
  type SsoProviderRequest,
} from '@fleet/shared/schemas/sso';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { ApiError } from '@/lib/api/api-error.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { useSsoProvider, useSsoProviderChanges } from '../api/sso-provider.ts';

type Draft = Required<Omit<SsoProviderRequest, 'client_secret'>> & { client_secret: string };

const empty: Draft = {
  label: '',
  issuer: '',
  client_id: '',
  client_secret: '',
  claim: 'email',
  auto_create: false,
  default_subtype: 'developer',
  default_access: [],
};

const draftOf = (p: SsoProvider | null): Draft =>
  p ? { ...empty, ...p, client_secret: '', default_access: p.default_access as Draft['default_access'] } : empty;

/** The required text fields: key, label and what else the input shows. */
const TEXT_FIELDS: Array<[key: 'label' | 'issuer' | 'client_id', label: string, more: Record<string, string>]> = [
  ['label', 'Button label', { description: 'Sign in with {label}' }],
  ['issuer', 'Issuer URL', { placeholder: 'https://idp.example.com/realms/fleet' }],
  ['client_id', 'Client ID', {}],
];

/** Field → first message, from zod or the server's 400 details. */
type FieldErrors = Partial<Record<keyof Draft, string>>;

/** The landlord's section of an entity's edit screen: its identity provider (docs/sso.md). */
export function SsoProviderSection({ entity }: { entity: string }) {
  const provider = useSsoProvider(entity);
  if (provider.isPending || provider.isError) return null;
  return <SsoProviderForm key={provider.dataUpdatedAt} entity={entity} provider={provider.data} />;
}

function SsoProviderForm({ entity, provider }: { entity: string; provider: SsoProvider | null }) {
  const { save, remove } = useSsoProviderChanges(entity);
  const confirmDelete = useConfirmDelete();
  const [draft, setDraft] = useState<Draft>(() => draftOf(provider));
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  const submit = () => {
    const body = { ...draft, client_secret: draft.client_secret || undefined };
    const parsed = SsoProviderRequestSchema.safeParse(body);
    const next: FieldErrors = {};
    for (const issue of parsed.error?.issues ?? []) next[issue.path[0] as keyof Draft] ??= issue.message;
    if (!provider?.has_secret && !draft.client_secret) next.client_secret = 'Required';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    save.mutate(body, {
      onSuccess: () => notifySuccess('Single sign-on saved'),
      onError: (e) => {
        const fields = e instanceof ApiError ? (e.details ?? {}) : {};
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]])));
      },
    });
  };

  return (
    <Card withBorder radius="md" padding="lg" mt="xl" component="section" aria-labelledby="sso-title">
      <Title order={3} size="h4" id="sso-title">
        Single sign-on
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        People of this entity sign in through its OpenID Connect provider. Register this redirect URI there:{' '}
        <Text span ff="monospace" size="sm">
          {provider?.redirect_uri ?? `${window.location.origin}/api/v1/sso/callback`}
        </Text>
      </Text>
      {save.isError && !(save.error instanceof ApiError && save.error.details) && (
        <Alert color="red" variant="light" mb="md" role="alert">
          {save.error instanceof ApiError ? save.error.userMessage : 'Could not save'}
        </Alert>
      )}
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {TEXT_FIELDS.map(([key, label, more]) => (
            <TextInput
              key={key}
              label={label}
              {...more}
              withAsterisk
              value={draft[key]}
              error={errors[key]}
              onChange={(e) => set(key, e.currentTarget.value)}
            />
          ))}
          <PasswordInput
            label="Client secret"
            placeholder={provider?.has_secret ? 'Stored; leave empty to keep it' : ''}
            withAsterisk={!provider?.has_secret}
            autoComplete="new-password"
            value={draft.client_secret}
            error={errors.client_secret}
            onChange={(e) => set('client_secret', e.currentTarget.value)}
          />
          <Select
            label="Match accounts by"
            data={[
              { value: 'email', label: 'E-mail' },
              { value: 'sub', label: 'Subject (sub)' },
            ]}
            allowDeselect={false}
            value={draft.claim}
            onChange={(v) => set('claim', (v ?? 'email') as Draft['claim'])}
          />
          <Select
            label="Default account type"
            data={SSO_CREATE_SUBTYPES.map((s) => ({ value: s, label: s }))}
            allowDeselect={false}
            disabled={!draft.auto_create}
            value={draft.default_subtype}
            error={errors.default_subtype}
            onChange={(v) => set('default_subtype', (v ?? 'developer') as Draft['default_subtype'])}
          />
        </SimpleGrid>
        <Checkbox
          label="Create an account on first sign-in"
          checked={draft.auto_create}
          onChange={(e) => set('auto_create', e.currentTarget.checked)}
        />
        <MultiSelect
          label="Default access"
          data={[...ACCESS_VALUES]}
          disabled={!draft.auto_create}
          value={draft.default_access}
          onChange={(v) => set('default_access', v as Draft['default_access'])}
        />
        <Group justify="flex-end" mt="sm">
          {provider && (
            <Button
              variant="default"
              color="red"
              loading={remove.isPending}
              onClick={() =>
                void confirmDelete().then(
                  (yes) =>
                    yes && remove.mutate(undefined, { onSuccess: () => notifySuccess('Single sign-on removed') }),
                )
              }
            >
              Remove
            </Button>
          )}
          <Button onClick={submit} loading={save.isPending}>
            Save single sign-on
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
