// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '@/lib/api/api.ts';
import { actingEntity } from '@/lib/session/acting-entity-state.ts';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { RoleGate } from './role-gate.tsx';

const entity = (name: string) => ({ name, description: '', license_tier: 'basic', created_at: '', updated_at: '' });
const ENTITIES = { data: [entity('acme'), entity('globex')], total: 2 };

/** A screen that shows where its tenant calls would go, or why none would. */
function Screen() {
  let path: string;
  try {
    path = api.tenant('site');
  } catch (error) {
    path = (error as Error).message;
  }
  return <p>calls {path}</p>;
}
function Where() {
  return <p>at {useLocation().pathname}</p>;
}

function renderAt(route: string, role: { otherwise: string | null; crossEntity?: boolean }) {
  stubApi((call) => (call.url.startsWith('/api/v1/tenant?') ? { body: ENTITIES } : { status: 404 }));
  return renderUi(
    <Routes>
      <Route
        path="/screen"
        element={
          <RoleGate landlord={false} {...role}>
            <Screen />
          </RoleGate>
        }
      />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route },
  );
}

const superadmin = () => signInAs({ subtype: 'sadmin', entity: 'landlord', sub: 'root' });
afterEach(() => actingEntity.set(null));

describe('an entity screen for a superadmin', () => {
  it('asks which entity when none is open, then shows the screen inside the one chosen', async () => {
    superadmin();
    const { user } = renderAt('/screen', { otherwise: null });
    // The choice opens once the entities are in.
    await user.click(await screen.findByPlaceholderText('Choose an entity'));
    await user.click(await screen.findByRole('option', { name: 'globex' }));
    await user.click(screen.getByRole('button', { name: 'Open entity' }));
    expect((await screen.findByText(/^calls/)).textContent).toBe('calls tenant/globex/site');
    expect(actingEntity.get()).toBe('globex');
  });

  it("opens the link's ?entity= and stays inside it", async () => {
    superadmin();
    renderAt('/screen?entity=acme', { otherwise: null });
    expect((await screen.findByText(/^calls/)).textContent).toBe('calls tenant/acme/site');
    expect(actingEntity.get()).toBe('acme');
  });

  it('shows the screen inside the entity already open in the tab', async () => {
    superadmin();
    actingEntity.set('globex');
    renderAt('/screen', { otherwise: '/landlord' });
    expect((await screen.findByText(/^calls/)).textContent).toBe('calls tenant/globex/site');
  });

  it('says so when the entity named does not exist', async () => {
    superadmin();
    renderAt('/screen?entity=gone', { otherwise: null });
    expect((await screen.findByRole('alert')).textContent).toBe('Entity gone was not found.');
    expect(screen.queryByText(/^calls/)).toBeNull();
  });

  it("goes to the landlord's counterpart when one exists and no entity is open", async () => {
    superadmin();
    renderAt('/screen', { otherwise: '/landlord' });
    expect((await screen.findByText(/^at/)).textContent).toBe('at /landlord');
  });

  it("leaves a landlord's cross-entity link (?entity= on a dataview screen) in the landlord view", async () => {
    superadmin();
    renderAt('/screen?entity=acme', { otherwise: null, crossEntity: true });
    // The dataview screens read the entity from the link themselves; tenant paths stay closed.
    expect((await screen.findByText(/^calls/)).textContent).toBe('calls Choose an entity first');
    expect(actingEntity.get()).toBeNull();
  });
});

describe('an entity screen for an entity user', () => {
  it('shows their own entity, whatever a link or the tab names', async () => {
    signInAs({ subtype: 'admin', entity: 'acme' });
    actingEntity.set('globex');
    renderAt('/screen?entity=globex', { otherwise: '/landlord' });
    expect((await screen.findByText(/^calls/)).textContent).toBe('calls tenant/acme/site');
  });
});
