import { Group, Text } from '@mantine/core';

export const PRODUCT_NAME = 'Fleet Console';

/** The product mark: a signal over a device, drawn inline so it follows the theme colour. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="var(--mantine-primary-color-filled)" />
      <circle cx="16" cy="17" r="3" fill="#fff" />
      <path
        d="M9.5 10.5a9.2 9.2 0 0 1 13 0M12.2 13.3a5.3 5.3 0 0 1 7.6 0M16 20v5"
        fill="none"
        stroke="#fff"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
    </svg>
  );
}

interface LogoProps {
  size?: number;
  textSize?: string;
  /** Hide the name below this breakpoint (narrow headers keep only the mark). */
  nameVisibleFrom?: 'xs' | 'sm';
}

/** Mark plus product name, used in the auth layout and the app header. */
export function Logo({ size = 28, textSize = 'lg', nameVisibleFrom }: LogoProps) {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      <Text fw={700} size={textSize} lh={1} visibleFrom={nameVisibleFrom} style={{ whiteSpace: 'nowrap' }}>
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
