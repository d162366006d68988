import { NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { isNavItemActive, type NavItem } from './nav-items.ts';

interface ShellNavProps {
  items: readonly NavItem[];
  /** Called after a link is followed, so the mobile drawer can close. */
  onNavigate(): void;
}

/** The navigation bar's links; the current area is highlighted and marked aria-current. */
export function ShellNav({ items, onNavigate }: ShellNavProps) {
  const { pathname } = useLocation();
  return (
    <Stack gap={4}>
      {items.map((item) => {
        const active = isNavItemActive(item, pathname);
        return (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            leftSection={<item.icon size={20} stroke={1.6} aria-hidden />}
            active={active}
            aria-current={active ? 'page' : undefined}
            variant="light"
            onClick={onNavigate}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
            fw={500}
          />
        );
      })}
    </Stack>
  );
}
