import {
  Avatar,
  Group,
  Menu,
  Text,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconLogout, IconMoon, IconSettings, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { logout } from '@/features/auth/api/logout.ts';
import { useSession } from '@/lib/session/use-session.ts';
import classes from './user-menu.module.css';

/** The user menu (core §2): Settings, a remembered Dark Mode toggle, Logout. */
export function UserMenu() {
  const current = useSession();
  const { setColorScheme } = useMantineColorScheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const username = current.username ?? '';
  const subtype = current.account?.subtype ?? current.claims?.subtype;

  return (
    <Menu position="bottom-end" width={220} shadow="md" radius="md" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton
          aria-label={`User menu for ${username}`}
          px={6}
          py={4}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap={8} wrap="nowrap">
            {/* An icon, not initials: visible text inside the button must be part of its accessible name. */}
            <Avatar size={30} radius="xl" color="initials" name={username}>
              <IconUser size={18} stroke={1.8} aria-hidden />
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="xs" maw={160} truncate="end">
              {username}
            </Text>
            <IconChevronDown size={14} stroke={1.8} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          Signed in as {username}
          {subtype === 'sadmin' ? ' (superadmin)' : subtype ? ` (${subtype})` : ''}
        </Menu.Label>
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} aria-hidden />}>
          Settings
        </Menu.Item>
        {/* Mantine forces role="menuitem", which allows no aria-checked: the state is in the name. */}
        <Menu.Item
          closeMenuOnClick={false}
          leftSection={<IconMoon size={16} aria-hidden />}
          rightSection={<span className={classes.toggle} data-on={dark || undefined} aria-hidden />}
          onClick={() => setColorScheme(dark ? 'light' : 'dark')}
        >
          Dark Mode<VisuallyHidden>{dark ? ', on' : ', off'}</VisuallyHidden>
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item className={classes.logout} leftSection={<IconLogout size={16} aria-hidden />} onClick={logout}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
