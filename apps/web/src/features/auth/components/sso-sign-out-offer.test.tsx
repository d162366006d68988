// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderUi } from '@/test/render.tsx';
import { rememberSignIn, rememberSignOut } from '../api/sso-sign-out.ts';
import { SsoSignOutOffer } from './sso-sign-out-offer.tsx';

const offer = () => screen.queryByRole('link', { name: 'Sign out of your identity provider too' });

describe('the offer to sign out of the identity provider too', () => {
  beforeEach(() => localStorage.clear());

  it('follows a sign-out of a session that began at a provider, to that provider’s end-session', () => {
    rememberSignIn('7b0e1c9a-0000-4000-8000-000000000001');
    rememberSignOut();
    renderUi(<SsoSignOutOffer />);
    expect(offer()?.getAttribute('href')).toBe('/api/v1/sso/7b0e1c9a-0000-4000-8000-000000000001/end-session');
  });

  it('is not made after a password session, nor once the person signs in again', () => {
    rememberSignIn(null);
    rememberSignOut();
    const { unmount } = renderUi(<SsoSignOutOffer />);
    expect(offer()).toBeNull();
    unmount();
    rememberSignIn('landlord');
    rememberSignOut();
    rememberSignIn(null);
    renderUi(<SsoSignOutOffer />);
    expect(offer()).toBeNull();
  });
});
