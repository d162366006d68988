import { Button, Group, Paper, Text } from '@mantine/core';
import { IconArrowBackUp, IconShieldHalf } from '@tabler/icons-react';
import classes from './entity-banner.module.css';

interface EntityBannerProps {
  /** The entity the superadmin is inside. */
  entity: string;
  /** Back to the landlord view. */
  onLeave(): void;
}

/** Says, on every screen, which entity a superadmin is looking inside, with the way back (issue 25). */
export function EntityBanner({ entity, onLeave }: EntityBannerProps) {
  return (
    <Paper
      className={classes.banner}
      data-tone="grape"
      radius="md"
      px="md"
      py="xs"
      mb="md"
      role="region"
      aria-label="Entity view"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <IconShieldHalf size={20} stroke={1.6} aria-hidden className={classes.icon} />
          <Text size="sm" c="inherit" style={{ minWidth: 0 }}>
            Superadmin inside entity{' '}
            <Text span fw={700} inherit>
              {entity}
            </Text>
            : what you change here changes {entity}.
          </Text>
        </Group>
        <Button size="xs" variant="default" leftSection={<IconArrowBackUp size={16} aria-hidden />} onClick={onLeave}>
          Back to landlord view
        </Button>
      </Group>
    </Paper>
  );
}
