// Test helper (not shipped: only *.test.tsx files import it). Renders a component as the console
// does (Mantine theme, a query cache, a router) on happy-dom, and answers its API calls. The stubs
// of happy-dom and the cleanup after each test are in setup-dom.ts, run before every test file.
import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, type queries, type RenderResult } from '@testing-library/react';
import { userEvent, type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { theme } from '@/app/theme.ts';
import { session } from '@/lib/session/session.ts';
import { makeAccessToken } from '@/lib/session/test-tokens.ts';

export interface Rendered extends RenderResult {
  user: UserEvent;
}

/** Renders `ui` inside the console's providers, with a fresh query cache; `user` types and clicks. */
export function renderUi(ui: ReactElement, { route = '/' }: { route?: string } = {}): Rendered {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    // env="test": no transitions and no portals, so a menu or modal is there at once, in the tree.
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
  // No delay between keystrokes: the tests type whole words and stay fast.
  return { user: userEvent.setup({ delay: null, pointerEventsCheck: 0 }), ...render<typeof queries>(ui, { wrapper }) };
}

/**
 * Puts `text` in the input labelled `label` as a paste: one change, where typing would re-render
 * the form a keystroke at a time (seconds on a busy machine for a form of five fields).
 */
export async function fill(user: UserEvent, label: RegExp | string, text: string): Promise<void> {
  const input = screen.getByLabelText(label, { selector: 'input, textarea' });
  await user.click(input);
  await user.paste(text);
}

export interface ApiCall {
  method: string;
  /** The path and query, e.g. `/api/v1/tenant/acme/account`. */
  url: string;
  body: unknown;
}

type Answer = { status?: number; body?: unknown };

/**
 * Replaces `fetch` for the test: each call is recorded and answered by `answer` (default 200 with
 * `{status: 'OK'}`), so a test can assert what a screen sent.
 */
export function stubApi(answer: (call: ApiCall) => Answer = () => ({})): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const raw = typeof init.body === 'string' ? init.body : undefined;
    const call: ApiCall = {
      method: init.method ?? 'GET',
      url: String(input),
      body: raw === undefined ? init.body : (JSON.parse(raw) as unknown),
    };
    calls.push(call);
    const { status = 200, body = { status: 'OK' } } = answer(call);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

/** Signs the app's one session in (alice, admin of acme unless `claims` say otherwise). */
export function signInAs(claims: Partial<AccessClaims> = {}): void {
  const entity = claims.entity ?? 'acme';
  const accessToken = makeAccessToken(Date.now(), 600_000, { entity, ...claims });
  session.signIn({ accessToken, refreshToken: 'r1', username: claims.sub ?? 'alice', entity });
}
