import { ActingEntityStore } from './acting-entity.ts';
import { session } from './session.ts';

function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The app's one acting-entity store (this tab's), emptied whenever the signed-in user changes. */
export const actingEntity = new ActingEntityStore(tabStorage());

let user = session.getSnapshot().username;
session.subscribe((change, snapshot) => {
  if (change === 'sign-in' || snapshot.username !== user) actingEntity.set(null);
  user = snapshot.username;
});
