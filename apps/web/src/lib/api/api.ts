import { pageIsLeaving } from '../navigation/page-leaving.ts';
import { notifier } from '../notify.ts';
import { activeEntityOf } from '../session/acting-entity.ts';
import { actingEntity } from '../session/acting-entity-state.ts';
import { refresher, session } from '../session/session.ts';
import { createApiClient } from './api-client.ts';

/** The app's one API client (base /api/v1); tenant paths go to the active entity (a superadmin's opened one). */
export const api = createApiClient({
  fetch: (input, init) => fetch(input, init),
  session,
  refresher,
  notifier,
  activeEntity: () => activeEntityOf(session.getSnapshot(), actingEntity.get()),
  pageIsLeaving,
});
