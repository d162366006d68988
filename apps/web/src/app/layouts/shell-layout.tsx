import { Suspense, useEffect } from 'react';
import { AppShell, Burger, Group, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ConfirmDeleteProvider } from '@/components/ui/confirm-delete.tsx';
import { ErrorBoundary } from '@/components/ui/error-boundary.tsx';
import { Logo } from '@/components/ui/logo.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { isLandlord } from '@/lib/session/jwt.ts';
import { noticeHost } from '@/lib/notify.ts';
import { useActingEntity } from '@/lib/session/use-active-entity.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { queryClient } from '../query-client.ts';
import classes from './shell-layout.module.css';
import { ActiveEntityButton } from './shell/active-entity-button.tsx';
import { EntityBanner } from './shell/entity-banner.tsx';
import { HeaderAlertBell } from './shell/header-alert-bell.tsx';
import { ENTITY_NAV, LANDLORD_NAV } from './shell/nav-items.ts';
import { OfflineBanner } from './shell/offline-banner.tsx';
import { RouteRendered } from './shell/route-rendered.tsx';
import { ShellNav } from './shell/shell-nav.tsx';
import { UserMenu } from './shell/user-menu.tsx';

/**
 * The signed-in frame: header (entity, user menu), role-specific navigation, and the screen; a
 * superadmin inside an entity sees that entity's navigation under a banner naming it.
 * It also provides the query cache and the delete-confirmation dialog to every screen, and says
 * when the browser is offline.
 */
export function ShellLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const current = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // A superadmin inside an entity (issue 25) gets the entity's navigation and a banner naming it.
  const acting = useActingEntity();
  const inside = isLandlord(current.claims) ? acting : null;
  const items = isLandlord(current.claims) && inside === null ? LANDLORD_NAV : ENTITY_NAV;
  // The alert bell follows the entity the screens act in; a superadmin outside every entity has none.
  const alertEntity = isLandlord(current.claims) ? inside : (current.entity ?? null);
  // Signed-in screens notify often; have the notice renderer ready before the first one.
  useEffect(() => noticeHost.prepare(), []);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfirmDeleteProvider>
        <AppShell
          header={{ height: 60 }}
          navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
          padding="lg"
        >
          <AppShell.Header>
            <Group h="100%" px="md" justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
                <Link to="/" aria-label="Fleet Console home" style={{ color: 'inherit', textDecoration: 'none' }}>
                  <Logo nameVisibleFrom="xs" />
                </Link>
              </Group>
              <Group gap="sm" wrap="nowrap">
                <HeaderAlertBell entity={alertEntity} landlord={isLandlord(current.claims)} />
                <ActiveEntityButton />
                <UserMenu />
              </Group>
            </Group>
          </AppShell.Header>
          <AppShell.Navbar p="sm" aria-label="Main">
            <AppShell.Section grow component={ScrollArea}>
              <ShellNav items={items} onNavigate={close} />
            </AppShell.Section>
          </AppShell.Navbar>
          <AppShell.Main className={classes.main}>
            <OfflineBanner />
            {inside !== null && <EntityBanner entity={inside} onLeave={() => void navigate('/entity')} />}
            {/* A failing screen keeps the header and navigation usable. */}
            <ErrorBoundary resetKey={pathname}>
              <Suspense fallback={<PageLoader />}>
                <Outlet />
                <RouteRendered />
              </Suspense>
            </ErrorBoundary>
          </AppShell.Main>
        </AppShell>
      </ConfirmDeleteProvider>
    </QueryClientProvider>
  );
}
