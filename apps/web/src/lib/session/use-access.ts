import { accessTo, type Access, type Area } from '@fleet/shared/access/rule';
import { useSession } from './use-session.ts';

/** What the signed-in account may do in `area` (packages/shared/src/access/rule.ts; the server decides the same way). */
export function useAccess(area: Area): Access {
  return accessTo(useSession().claims, area);
}
