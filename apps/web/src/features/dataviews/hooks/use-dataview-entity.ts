import { useSearchParams } from 'react-router';
import { isLandlord } from '@/lib/session/jwt.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useSession } from '@/lib/session/use-session.ts';

/**
 * The entity a dataview screen works in: the active entity (a superadmin's: the one it opened),
 * or for the landlord's view the `?entity=` its cross-entity list passed along (the route's
 * EntityScope never lets the screen render with neither).
 */
export function useDataviewEntity(): { entity: string; landlord: boolean; list: string } {
  const current = useSession();
  const active = useActiveEntity();
  const [params] = useSearchParams();
  const landlord = isLandlord(current.claims) && active === '';
  const entity = landlord ? (params.get('entity') ?? '') : active;
  return { entity, landlord, list: landlord ? '/sDataview' : '/dataview' };
}
