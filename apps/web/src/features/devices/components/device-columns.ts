import type { MantineBreakpoint } from '@mantine/core';

/**
 * The widths from which the device table's lower-priority columns show. Below `lg` (where the
 * navigation still takes 240 px) Groups, Version and Created Date fold into the Device ID cell;
 * below `md` the Entity joins them and Last Updated folds under the Status, so the table fits
 * without scrolling sideways (docs/decisions/2026-11-27-device-table-widths.md).
 */
export const FULL: MantineBreakpoint = 'lg';
export const MEDIUM: MantineBreakpoint = 'md';
