import type { ReactNode } from 'react';
import { Navigate, generatePath, useParams } from 'react-router';
import { isLandlord } from '@/lib/session/jwt.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { EntityScope, LandlordScope } from './entity-scope.tsx';

interface RoleGateProps {
  /** The screen is the landlord's (true) or an entity's (false). */
  landlord: boolean;
  /**
   * The other role's counterpart, e.g. '/account/:name' for '/saccounts/:name'. On an entity
   * screen, null: it has no landlord counterpart, and a superadmin with no entity open is asked which.
   */
  otherwise: string | null;
  /** Entity screens whose `?entity=` is also the landlord's cross-entity target (see EntityScope). */
  crossEntity?: boolean;
  children: ReactNode;
}

/**
 * Landlord screens call plain paths and entity screens tenant ones. An entity user meeting a
 * landlord screen is sent to its counterpart; a superadmin on an entity screen sees it inside the
 * entity it opened (EntityScope), and on a landlord screen leaves any entity it was inside.
 */
export function RoleGate({ landlord, otherwise, crossEntity, children }: RoleGateProps) {
  const { claims } = useSession();
  const params = useParams();
  const superadmin = isLandlord(claims);
  if (landlord) {
    if (superadmin) return <LandlordScope>{children}</LandlordScope>;
    return <Navigate to={generatePath(otherwise ?? '/', params)} replace />;
  }
  return (
    <EntityScope counterpart={otherwise} crossEntity={crossEntity}>
      {children}
    </EntityScope>
  );
}
