import { useState } from 'react';
import { Button, Group, Modal, Stack, Switch, Table } from '@mantine/core';
import type { AlertRule } from '@fleet/shared/schemas/alert';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { fieldErrorsFromApi } from '@/lib/forms/field-errors.ts';
import { useAlertRuleChanges, useAlertRules, type AlertRuleFields } from '../api/alert-rules-api.ts';
import { KIND_LABELS } from './alert-labels.ts';
import { AlertRuleForm, RULE_FIELDS } from './alert-rule-form.tsx';

type Editing = { mode: 'create' } | { mode: 'edit'; rule: AlertRule } | null;

const scopeText = (r: AlertRule) => (r.scope === 'entity' ? 'Whole entity' : `${r.scope} ${r.scope_name ?? ''}`);
const delays = (r: AlertRule) => `${r.start_delay_s} s / ${r.clear_delay_s} s`;

/** The entity's alert rules; `editable` (admins with all access, superadmins) adds the controls. */
export function AlertRulesView({ editable }: { editable: boolean }) {
  const rules = useAlertRules();
  const changes = useAlertRuleChanges();
  const confirm = useConfirmDelete();
  const [editing, setEditing] = useState<Editing>(null);
  const saving = editing?.mode === 'edit' ? changes.update : changes.create;

  const submit = (fields: AlertRuleFields) => {
    const done = { onSuccess: () => setEditing(null) };
    if (editing?.mode === 'edit') {
      const { kind: _kind, ...$set } = fields;
      changes.update.mutate({ id: editing.rule.id, $set }, done);
    } else changes.create.mutate(fields, done);
  };
  const open = (next: Editing) => {
    changes.create.reset();
    changes.update.reset();
    setEditing(next);
  };

  return (
    <Stack gap="sm">
      {editable && (
        <Group justify="flex-end">
          <Button onClick={() => open({ mode: 'create' })}>New rule</Button>
        </Group>
      )}
      <DataTable
        label="Alert rules"
        columns={[
          { header: 'Name' },
          { header: 'Kind' },
          { header: 'Scope' },
          { header: 'Threshold' },
          { header: 'Start / clear delay' },
          { header: 'Severity' },
          { header: 'On' },
          editable && { header: 'Actions', hidden: true },
        ]}
        items={rules.data?.data}
        loading={rules.isPending}
        failed={rules.isError}
        errorTitle="The rules could not be loaded."
        onRetry={() => void rules.refetch()}
        empty={
          <ListEmpty
            title="No alert rules"
            description={
              editable
                ? 'Add a rule to be told when devices go quiet, run low or fail.'
                : 'An admin of this entity adds the rules that raise alerts.'
            }
          />
        }
        minWidth={640}
        look={{ verticalSpacing: 'xs', highlightOnHover: true }}
        row={(r) => (
          <Table.Tr key={r.id} data-rule={r.name}>
            <Table.Td>{r.name}</Table.Td>
            <Table.Td>{KIND_LABELS[r.kind]}</Table.Td>
            <Table.Td>{scopeText(r)}</Table.Td>
            <Table.Td>{r.threshold ?? '—'}</Table.Td>
            <Table.Td>{delays(r)}</Table.Td>
            <Table.Td>{r.severity}</Table.Td>
            <Table.Td>
              <Switch
                aria-label={`${r.name} on`}
                checked={r.enabled}
                disabled={!editable || changes.update.isPending}
                onChange={(e) => changes.update.mutate({ id: r.id, $set: { enabled: e.currentTarget.checked } })}
              />
            </Table.Td>
            {editable && (
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => open({ mode: 'edit', rule: r })}>
                    Edit
                  </Button>
                  <DeleteAction
                    tooltip="Delete"
                    label={`Delete rule ${r.name}`}
                    loading={changes.remove.isPending && changes.remove.variables === r.id}
                    onClick={() => void confirm().then((yes) => yes && changes.remove.mutate(r.id))}
                  />
                </Group>
              </Table.Td>
            )}
          </Table.Tr>
        )}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.mode === 'edit' ? 'Edit rule' : 'New rule'}
        size="lg"
      >
        {editing && (
          <AlertRuleForm
            initial={editing.mode === 'edit' ? editing.rule : undefined}
            busy={saving.isPending}
            errors={fieldErrorsFromApi(saving.error, RULE_FIELDS, 'name')}
            onSubmit={submit}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}
