import { useState } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { createRollout, dryRunRollout, rolloutKeys } from '../api/rollouts-api.ts';
import {
  bodyOf,
  dryRunReady,
  FORM_DEFAULTS,
  formErrors,
  type FormField,
  type RolloutFormValues,
} from '../utils/rollout-form-state.ts';
import { DryRunSummary } from './dry-run-summary.tsx';
import { KnobFields } from './knob-fields.tsx';
import { StagesEditor } from './stages-editor.tsx';
import { ChoiceSelect, TargetFields } from './target-fields.tsx';
import type { ChoiceSources } from '../utils/choice-sources.ts';

/**
 * The create form: name, what it delivers, the target, the stages with each one's dry-run size, and
 * the knobs. Creating makes a draft and opens its page, where it is started.
 */
export function RolloutForm({ sources }: { sources: ChoiceSources }) {
  const navigate = useNavigate();
  const [v, setV] = useState<RolloutFormValues>(FORM_DEFAULTS);
  const [errors, setErrors] = useState<Partial<Record<FormField, string>>>({});
  const patch = (p: Partial<RolloutFormValues>) => setV((old) => ({ ...old, ...p }));
  const firmware = sources.useFirmware();
  const [asked] = useDebouncedValue(dryRunReady(v) ? JSON.stringify(bodyOf(v)) : null, 300);
  const dryRun = useQuery({
    queryKey: [...rolloutKeys.all, 'dry-run', asked],
    queryFn: ({ signal }) => dryRunRollout(JSON.parse(asked!) as ReturnType<typeof bodyOf>, signal),
    enabled: asked !== null,
    retry: false,
  });
  const create = useMutation({
    mutationFn: () => createRollout(bodyOf(v)),
    onSuccess: (rollout) => void navigate(`/rollouts/${rollout.id}`),
    onError: (error) => setErrors(formErrors(error)),
  });

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setErrors({});
        create.mutate();
      }}
    >
      <Stack gap="lg" maw={760}>
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <TextInput
              label="Name"
              required
              maxLength={100}
              value={v.name}
              error={errors.name}
              onChange={(e) => patch({ name: e.currentTarget.value })}
            />
            <div>
              <Text size="sm" fw={500} mb={4} id="rollout-delivers">
                Delivers
              </Text>
              <SegmentedControl
                aria-labelledby="rollout-delivers"
                data={[
                  { value: 'firmware', label: 'Firmware' },
                  { value: 'files', label: 'File set (provisioning)' },
                ]}
                value={v.delivery}
                onChange={(d) => patch({ delivery: d as RolloutFormValues['delivery'] })}
              />
            </div>
            {v.delivery === 'firmware' && (
              <ChoiceSelect
                label="Firmware"
                what="firmware"
                description="A version for one device type; only devices of that type are reached"
                list={firmware}
                value={v.firmware_id}
                error={errors.firmware_id}
                onChange={(id) => patch({ firmware_id: id })}
                w={320}
              />
            )}
            <TargetFields
              kind={v.target}
              name={v.targetName}
              query={v.query}
              error={errors.target}
              sources={sources}
              onChange={(t) => patch({ target: t.kind, targetName: t.name, query: t.query })}
            />
          </Stack>
        </Paper>
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="rollout-stages-title">
          <Title order={2} size="h4" mb="sm" id="rollout-stages-title">
            Stages
          </Title>
          <StagesEditor
            canary={v.canary}
            percents={v.percents}
            sizes={dryRun.data?.stages.map((s) => s.size)}
            error={errors.percents ?? errors.canary}
            onChange={(s) => patch(s)}
          />
          <DryRunSummary ready={asked !== null} query={dryRun} />
        </Paper>
        <KnobFields values={v} errors={errors} onChange={patch} />
        {errors.form && (
          <Alert color="red" variant="light" role="alert" title="The rollout was not created">
            {errors.form}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create rollout
          </Button>
          <Text size="sm" c="dimmed">
            It is created as a draft; start it from its page.
          </Text>
        </Group>
      </Stack>
    </form>
  );
}
