import { ActionIcon, Indicator, Popover, Stack, Text, Anchor } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAlerts } from '../api/alerts-api.ts';
import { useAlertCount } from '../hooks/use-alert-count.ts';
import { KIND_LABELS, alertSubject } from './alert-labels.ts';

/** Open alerts the bell's list shows. */
const RECENT = 8;

/**
 * The header's notification centre: a bell with the count of active alerts (live through any
 * instance), opening the most recent open ones and a link to the Alerts screen.
 */
export function AlertBell({ entity }: { entity: string }) {
  const counts = useAlertCount(entity);
  const [opened, setOpened] = useState(false);
  const active = counts?.active ?? 0;
  const label = counts === null ? 'Alerts' : `Alerts: ${active} active`;
  return (
    <Indicator label={active} size={18} disabled={active === 0} color="red" offset={4}>
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} shadow="md">
        <Popover.Target>
          <ActionIcon
            variant="default"
            size="lg"
            radius="md"
            aria-label={label}
            title={label}
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={18} stroke={1.6} aria-hidden />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>{opened && <RecentAlerts onNavigate={() => setOpened(false)} />}</Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

function RecentAlerts({ onNavigate }: { onNavigate(): void }) {
  const recent = useAlerts({ status: 'open', limit: RECENT });
  const items = recent.data?.data ?? [];
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm">
        Open alerts
      </Text>
      {recent.isPending && <Text size="sm">Loading…</Text>}
      {!recent.isPending && items.length === 0 && (
        <Text size="sm" c="dimmed">
          Nothing needs attention.
        </Text>
      )}
      {items.map((a) => {
        const { label, device } = alertSubject(a);
        return (
          <Anchor
            key={a.id}
            component={Link}
            to={device === null ? '/alerts' : `/device/${encodeURIComponent(device)}`}
            onClick={onNavigate}
            size="sm"
          >
            {label}: {KIND_LABELS[a.kind]} ({a.status})
          </Anchor>
        );
      })}
      <Anchor component={Link} to="/alerts" onClick={onNavigate} size="sm" fw={600}>
        All alerts
      </Anchor>
    </Stack>
  );
}
