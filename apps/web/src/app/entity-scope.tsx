import { Fragment, useEffect, type ReactNode } from 'react';
import { Navigate, generatePath, useParams, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { useEntities } from '@/features/entities/api/get-entities.ts';
import { EntityPicker } from '@/features/entities/components/entity-picker.tsx';
import { isLandlord } from '@/lib/session/jwt.ts';
import { useActingEntity } from '@/lib/session/use-active-entity.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { enterEntity, leaveEntity } from './entity-context.ts';

interface EntityScopeProps {
  children: ReactNode;
  /**
   * The landlord's screen covering every entity (e.g. /sdevices/:name for /device/:name): a
   * superadmin with no entity open goes there as before. Null: the screen exists only inside an
   * entity, and the superadmin is asked which.
   */
  counterpart: string | null;
  /** `?entity=` alone names the landlord's target without entering it (the dataview screens opened from /sDataview). */
  crossEntity?: boolean;
}

/**
 * An entity screen for a superadmin (issue 25): shown inside the entity it opened in this tab,
 * or the one the link names (`?entity=`, which opens it); with neither, the landlord's
 * counterpart or the question which entity. Never a call to `tenant//…` or the landlord scope.
 * Everyone else sees the screen of their own entity.
 */
export function EntityScope({ children, counterpart, crossEntity = false }: EntityScopeProps) {
  const superadmin = isLandlord(useSession().claims);
  const acting = useActingEntity();
  const [search] = useSearchParams();
  const params = useParams();
  const linked = search.get('entity') || null;
  const landlordTarget = crossEntity && acting === null && linked !== null;
  const entering = superadmin && !landlordTarget && linked !== null && linked !== acting;
  useEffect(() => {
    if (entering && linked) enterEntity(linked);
  }, [entering, linked]);

  if (!superadmin || landlordTarget) return children;
  if (entering) return <PageLoader />;
  if (acting === null) {
    return counterpart ? <Navigate to={generatePath(counterpart, params)} replace /> : <ChooseEntity />;
  }
  return <KnownEntity entity={acting}>{children}</KnownEntity>;
}

/** The screen once the opened entity is known to exist; remounted in each entity. */
function KnownEntity({ entity, children }: { entity: string; children: ReactNode }) {
  const entities = useEntities();
  if (entities.isPending) return <PageLoader />;
  // Without the list (it failed) the server still says 'Entity not found' on every call.
  if (entities.data && !entities.data.some((e) => e.name === entity)) return <ChooseEntity missing={entity} />;
  return <Fragment key={entity}>{children}</Fragment>;
}

/** Asks which entity; the choice opens it and the screen shows at once. */
function ChooseEntity({ missing = null }: { missing?: string | null }) {
  const entities = useEntities();
  return (
    <EntityPicker
      entities={entities.data}
      loading={entities.isPending}
      failed={entities.isError}
      onRetry={() => void entities.refetch()}
      missing={missing}
      onOpen={enterEntity}
    />
  );
}

/** A landlord screen: a superadmin inside an entity leaves it first (the banner goes, the landlord navigation returns). */
export function LandlordScope({ children }: { children: ReactNode }) {
  const acting = useActingEntity();
  useEffect(() => {
    if (acting !== null) leaveEntity();
  }, [acting]);
  return acting === null ? children : <PageLoader />;
}
