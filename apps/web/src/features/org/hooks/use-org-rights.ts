import { mayReadOrg, mayWriteOrg, type OrgArea } from '@fleet/shared/org-access';
import { useSession } from '@/lib/session/use-session.ts';

/** What the signed-in account may do in an area; the server decides the same way. */
export function useOrgRights(area: OrgArea) {
  const claims = useSession().claims;
  return {
    read: claims ? mayReadOrg(claims, area) : false,
    write: claims ? mayWriteOrg(claims, area) : false,
  };
}
