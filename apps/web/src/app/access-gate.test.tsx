// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderUi, signInAs } from '@/test/render.tsx';
import { AccessGate, screenAt } from './access-gate.tsx';
import { ENTITY_NAV } from './layouts/shell/nav-items.ts';
import { ShellNav } from './layouts/shell/shell-nav.tsx';

function renderAt(route: string) {
  return renderUi(
    <Routes>
      <Route element={<AccessGate />}>
        <Route path="*" element={<p>the screen</p>} />
      </Route>
    </Routes>,
    { route },
  );
}

describe('AccessGate (the shared access rule, issue 25)', () => {
  it('finds the static screen before a parameter one, whatever the case', () => {
    expect(screenAt('/entity/config')?.path).toBe('/entity/config');
    expect(screenAt('/device/abc/allocate')?.path).toBe('/device/{name}/allocate');
    expect(screenAt('/sdataview')?.path).toBe('/sDataview');
  });

  it('tells an operator in words that sites are not theirs, with what to ask for', () => {
    signInAs({ subtype: 'operator', permissions: [] });
    renderAt('/site');
    expect(screen.queryByText('the screen')).toBeNull();
    expect(screen.getByText('You do not have access to sites and kiosks')).toBeTruthy();
    expect(screen.getByText(/Ask an administrator for Site_read/)).toBeTruthy();
  });

  it('shows a create screen read-only to an account that may only read the area', () => {
    signInAs({ subtype: 'operator', permissions: ['Site_read'] });
    renderAt('/site/new');
    expect(screen.getByText('Read-only access')).toBeTruthy();
    expect(screen.queryByText('the screen')).toBeNull();
  });

  it('keeps Allocate from an operator and lets a Group_all account through', () => {
    signInAs({ subtype: 'operator', permissions: ['Group_read'] });
    const { unmount } = renderAt('/device/abc/allocate');
    expect(screen.getByText('You do not have access to allocating and returning devices')).toBeTruthy();
    unmount();
    signInAs({ subtype: 'operator', permissions: ['Group_all'] });
    renderAt('/device/abc/allocate');
    expect(screen.getByText('the screen')).toBeTruthy();
  });

  it('lets every account open the screens it may read', () => {
    signInAs({ subtype: 'operator', permissions: [] });
    renderAt('/device/abc');
    expect(screen.getByText('the screen')).toBeTruthy();
  });
});

describe('ShellNav', () => {
  it('offers an account only the areas it may read', () => {
    signInAs({ subtype: 'operator', permissions: ['Group_read'] });
    renderUi(<ShellNav items={ENTITY_NAV} onNavigate={() => {}} />);
    expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual([
      'Accounts',
      'Dataviews',
      'Groups',
      'Devices',
      'Fleet health',
      'Alerts',
      'Rollouts',
    ]);
  });
});
