import { useState } from 'react';
import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';

interface DeviceSearchProps {
  /** The search in effect (from the URL). */
  value: string;
  onSearch(value: string): void;
}

/** Search by device id or description; typing settles for 300 ms before the list reloads. */
export function DeviceSearch({ value, onSearch }: DeviceSearchProps) {
  const [input, setInput] = useState(value);
  const [applied, setApplied] = useState(value);
  // Follow changes from outside (Clear filters, Back) without undoing what is being typed.
  if (value !== applied) {
    setApplied(value);
    if (value !== input.trim()) setInput(value);
  }
  const search = useDebouncedCallback((text: string) => onSearch(text.trim()), 300);
  const change = (text: string) => {
    setInput(text);
    search(text);
  };
  return (
    <TextInput
      aria-label="Search devices"
      placeholder="Search by Device ID or description"
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        input !== '' && (
          <CloseButton
            size="sm"
            aria-label="Clear search"
            onClick={() => {
              change('');
              search.flush();
            }}
          />
        )
      }
      value={input}
      onChange={(event) => change(event.currentTarget.value)}
      onKeyDown={(event) => event.key === 'Enter' && search.flush()}
      w={{ base: '100%', sm: 320 }}
      maxLength={100}
    />
  );
}
