import { Outlet, matchPath, useLocation } from 'react-router';
import { SCREENS, screenAccess, type Screen } from '@fleet/shared/access/screens';
import { AccessPanel } from '@/components/ui/access-panel.tsx';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useSession } from '@/lib/session/use-session.ts';

const PATTERNS = SCREENS.map((screen) => ({ screen, pattern: screen.path.replace(/\{(\w+)\}/g, ':$1') }));

/** The screen of the access rule a URL opens: a static path before a parameter (/entity/config, not /entity/{entityName}). */
export function screenAt(pathname: string): Screen | undefined {
  const found = PATTERNS.filter(({ pattern }) => matchPath({ path: pattern, caseSensitive: false }, pathname));
  found.sort((a, b) => a.pattern.split(':').length - b.pattern.split(':').length);
  return found[0]?.screen;
}

/**
 * Every signed-in screen behind the shared access rule (packages/shared/src/access): a screen the
 * account may not use says so in words, with what to ask for. The landlord's screens are left to
 * the role gate (it sends an entity user to the counterpart).
 */
export function AccessGate() {
  const { pathname } = useLocation();
  const { claims } = useSession();
  const goBack = useGoBack('/');
  const screen = screenAt(pathname);
  if (!screen || screen.landlord || screenAccess(claims, screen) !== 'none') return <Outlet />;
  const readable = screenAccess(claims, { area: screen.area, needs: 'read' }) !== 'none';
  return <AccessPanel area={screen.area} kind={readable ? 'read' : 'none'} onBack={goBack} />;
}
