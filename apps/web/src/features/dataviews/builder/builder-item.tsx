import type { KeyboardEvent } from 'react';
import { ActionIcon, Group, Text, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { DataviewItem } from '@fleet/shared/schemas/dataview';
import { describePlace, type KeyAction } from './builder-layout.ts';
import classes from './builder.module.css';
import { WIDGETS } from './widgets.tsx';

const KEYS: Record<string, KeyAction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

interface BuilderItemProps {
  item: DataviewItem;
  editable: boolean;
  onTitle(title: string): void;
  onRemove(): void;
  onNudge(key: KeyAction, resize: boolean): void;
}

/**
 * One placed item. With the keyboard: Tab to it, arrows move it a cell, Shift + arrows resize
 * it, Delete removes it; the mouse drags it and resizes it from the corner handle.
 */
export function BuilderItem({ item, editable, onTitle, onRemove, onNudge }: BuilderItemProps) {
  const { label, Icon } = WIDGETS[item.type];
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!editable || e.target !== e.currentTarget) return;
    const key = KEYS[e.key];
    if (key) {
      e.preventDefault();
      onNudge(key, e.shiftKey);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      onRemove();
    }
  };
  return (
    <div
      className={classes.item}
      tabIndex={0}
      role="group"
      aria-roledescription="grid item"
      aria-label={`${label} ${item.title || item.i}: ${describePlace(item)}`}
      aria-describedby={editable ? 'builder-keys' : undefined}
      onKeyDown={onKeyDown}
      data-item={item.i}
    >
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <Icon size={18} aria-hidden />
          <Text size="sm" fw={600}>
            {label}
          </Text>
        </Group>
        {editable && (
          <ActionIcon
            size="sm"
            variant="subtle"
            color="red"
            className="no-drag"
            aria-label={`Remove ${label} ${item.title || item.i}`}
            onClick={onRemove}
          >
            <IconX size={14} aria-hidden />
          </ActionIcon>
        )}
      </Group>
      <TextInput
        className="no-drag"
        size="xs"
        mt={6}
        aria-label={`Title of ${label} ${item.i}`}
        placeholder="Title"
        value={item.title}
        readOnly={!editable}
        onChange={(e) => onTitle(e.currentTarget.value)}
      />
      <Text size="xs" c="dimmed" mt={4} className={classes.place}>
        {item.w} × {item.h}
      </Text>
    </div>
  );
}
