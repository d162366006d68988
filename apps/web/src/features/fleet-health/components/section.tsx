import type { ReactNode } from 'react';
import { Paper, Title } from '@mantine/core';

/** One panel of the fleet health screen with its heading. */
export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {actions}
      {children}
    </Paper>
  );
}
