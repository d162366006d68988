import { Button, Group, Loader, ScrollArea, Stack, Text, ThemeIcon, Timeline } from '@mantine/core';
import {
  IconAdjustments,
  IconArrowBackUp,
  IconCpu,
  IconFileSettings,
  IconHistory,
  IconPlugConnected,
  IconPlugConnectedX,
  IconSend,
  IconUserShare,
  type Icon,
} from '@tabler/icons-react';
import type { TimelineItem, TimelineType } from '@fleet/shared/schemas/telemetry';
import { ListEmpty, ListError } from '@/components/ui/table-states.tsx';
import { formatDateTime, formatRelative } from '@/lib/format/time.ts';
import { useTimeline } from '../api/history-api.ts';
import { timelineText } from '../utils/history-series.ts';

const ICONS: Record<TimelineType, Icon> = {
  online: IconPlugConnected,
  offline: IconPlugConnectedX,
  state: IconAdjustments,
  command: IconSend,
  firmware_update: IconCpu,
  provisioning: IconFileSettings,
  allocation: IconUserShare,
  return: IconArrowBackUp,
  audit: IconHistory,
};

/** What happened to the device, newest first, a page at a time with "Load more". */
export function DeviceTimeline({ entity, name, now }: { entity: string; name: string; now: number }) {
  const timeline = useTimeline(entity, name);
  const items = timeline.data?.pages.flatMap((p) => p.data);

  if (timeline.isPending) return <Loader size="sm" aria-label="Loading the timeline" />;
  if (!items) return <ListError title="The timeline could not be loaded." onRetry={() => void timeline.refetch()} />;
  if (items.length === 0)
    return (
      <ListEmpty
        title="Nothing has happened to this device yet"
        description="Its state reports, connections, commands, firmware updates, allocations and changes will appear here, newest first."
      />
    );

  return (
    <Stack gap="md">
      {/* A long history scrolls inside its frame; the commands and allocations stay within reach. */}
      <ScrollArea.Autosize
        mah={520}
        type="auto"
        offsetScrollbars
        viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Timeline events' }}
      >
        <Timeline bulletSize={26} lineWidth={2} aria-label="Timeline">
          {items.map((item, i) => (
            <TimelineEntry key={`${item.at}-${item.type}-${i}`} item={item} now={now} />
          ))}
        </Timeline>
      </ScrollArea.Autosize>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {items.length} event{items.length === 1 ? '' : 's'}
          {timeline.hasNextPage ? '' : ' · the beginning'}
        </Text>
        {timeline.hasNextPage && (
          <Button
            variant="default"
            size="xs"
            onClick={() => void timeline.fetchNextPage()}
            loading={timeline.isFetchingNextPage}
          >
            Load more
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function TimelineEntry({ item, now }: { item: TimelineItem; now: number }) {
  const { title, detail } = timelineText(item);
  const Glyph = ICONS[item.type];
  const failed = item.data.outcome === 'failure' || item.data.state === 'failed' || item.data.state === 'error';
  return (
    <Timeline.Item
      bullet={
        <ThemeIcon
          size={26}
          radius="xl"
          variant="light"
          color={failed ? 'red' : item.type === 'offline' ? 'gray' : 'blue'}
        >
          <Glyph size={14} aria-hidden />
        </ThemeIcon>
      }
      title={title}
    >
      {detail && (
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt={2}>
        <time dateTime={item.at} title={formatDateTime(item.at)}>
          {formatRelative(item.at, now)}
        </time>
      </Text>
    </Timeline.Item>
  );
}
