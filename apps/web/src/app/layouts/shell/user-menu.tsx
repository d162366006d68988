import {
  Avatar,
  Group,
  Menu,
  Switch,
  Text,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconChevronDown, IconLogout, IconMoon, IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router';
import { logout } from '@/features/auth/api/logout.ts';
import { useSession } from '@/lib/session/use-session.ts';

/** The user menu (core §2): Settings, a remembered Dark Mode toggle, Logout. */
export function UserMenu() {
  const current = useSession();
  const { setColorScheme } = useMantineColorScheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const username = current.username ?? '';
  const subtype = current.account?.subtype ?? current.claims?.subtype;

  return (
    <Menu position="bottom-end" width={220} shadow="md" radius="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          aria-label={`User menu for ${username}`}
          px={6}
          py={4}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap={8} wrap="nowrap">
            <Avatar size={30} radius="xl" color="initials" name={username} />
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
        <Menu.Item
          role="menuitemcheckbox"
          aria-checked={dark}
          closeMenuOnClick={false}
          leftSection={<IconMoon size={16} aria-hidden />}
          rightSection={
            <Switch
              size="xs"
              checked={dark}
              readOnly
              tabIndex={-1}
              aria-hidden
              styles={{ root: { pointerEvents: 'none' } }}
            />
          }
          onClick={() => setColorScheme(dark ? 'light' : 'dark')}
        >
          Dark Mode
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} aria-hidden />} onClick={logout}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
