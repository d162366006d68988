import { useSearchParams } from 'react-router';
import { isLandlord } from '@/lib/session/jwt.ts';
import { useSession } from '@/lib/session/use-session.ts';

/**
 * The entity a dataview screen works in: the active entity, or for the landlord the
 * `?entity=` its cross-entity list passed along (empty when none was given).
 */
export function useDataviewEntity(): { entity: string; landlord: boolean; list: string } {
  const current = useSession();
  const [params] = useSearchParams();
  const landlord = isLandlord(current.claims);
  const entity = landlord ? (params.get('entity') ?? '') : (current.entity ?? '');
  return { entity, landlord, list: landlord ? '/sDataview' : '/dataview' };
}
