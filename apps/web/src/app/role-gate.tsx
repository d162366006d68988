import type { ReactNode } from 'react';
import { Navigate, generatePath, useParams } from 'react-router';
import { isLandlord } from '@/lib/session/jwt.ts';
import { useSession } from '@/lib/session/use-session.ts';

interface RoleGateProps {
  /** The screen is the landlord's (true) or an entity user's (false). */
  landlord: boolean;
  /** The other role's counterpart, e.g. '/account/:name' for '/saccounts/:name'. */
  otherwise: string;
  children: ReactNode;
}

/**
 * Landlord screens call plain paths and entity screens tenant ones, so each only works for its
 * own role; the other role is sent to its counterpart instead of meeting a refusal.
 */
export function RoleGate({ landlord, otherwise, children }: RoleGateProps) {
  const { claims } = useSession();
  const params = useParams();
  if (isLandlord(claims) === landlord) return children;
  return <Navigate to={generatePath(otherwise, params)} replace />;
}
