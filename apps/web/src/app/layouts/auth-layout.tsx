import { Anchor, Center, Stack, Text } from '@mantine/core';
import { Outlet } from 'react-router';
import { SUPPORT_EMAIL } from '@fleet/shared/constants';
import { Logo } from '@/components/ui/logo.tsx';
import classes from './auth-layout.module.css';

/** Layout of the public pages: product name, the page's card centred, and a support contact. */
export function AuthLayout() {
  return (
    <div className={classes.root}>
      <Center component="main" className={classes.main} px="md" py="xl">
        <Stack w="100%" maw={420} gap="lg">
          <Center>
            <Logo size={36} textSize="xl" />
          </Center>
          <Outlet />
          <Text size="sm" c="dimmed" ta="center">
            Trouble signing in?{' '}
            <Anchor href={`mailto:${SUPPORT_EMAIL}`} size="sm" underline="always">
              Contact support
            </Anchor>
          </Text>
        </Stack>
      </Center>
    </div>
  );
}
