import { NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { mayRead } from '@fleet/shared/access/rule';
import { useSession } from '@/lib/session/use-session.ts';
import { isNavItemActive, type NavItem } from './nav-items.ts';

interface ShellNavProps {
  items: readonly NavItem[];
  /** Called after a link is followed, so the mobile drawer can close. */
  onNavigate(): void;
}

/**
 * The navigation bar's links, those the account may read (the shared access rule); the current
 * area is highlighted and marked aria-current.
 */
export function ShellNav({ items, onNavigate }: ShellNavProps) {
  const { pathname } = useLocation();
  const { claims } = useSession();
  return (
    <Stack gap={4}>
      {items
        .filter((item) => mayRead(claims, item.area))
        .map((item) => {
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
