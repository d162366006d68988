import { MutationObserver, QueryClient, QueryObserver, onlineManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR } from '@/lib/api/api-error.ts';
import { QUERY_DEFAULTS } from './query-defaults.ts';

const networkError = () => new ApiError({ status: 0, userMessage: NETWORK_ERROR });
let client: QueryClient;

beforeEach(() => {
  client = new QueryClient({ defaultOptions: QUERY_DEFAULTS });
  client.mount();
  onlineManager.setOnline(false);
});
afterEach(() => {
  onlineManager.setOnline(true);
  client.unmount();
  client.clear();
});

describe('the query cache offline', () => {
  it('sends an action at once and fails it, never holding it for the connection', async () => {
    const send = vi.fn(() => Promise.reject(networkError()));
    const observer = new MutationObserver(client, { mutationFn: send });
    const sent = observer.mutate().then(
      () => null,
      (error: unknown) => error,
    );
    // Sent now, not when the connection returns (the old default held it, paused, for ever).
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(1), { timeout: 500 });
    expect(await sent).toMatchObject({ userMessage: NETWORK_ERROR });
    expect(observer.getCurrentResult()).toMatchObject({ status: 'error', isPaused: false });

    // Back online, nothing goes out by itself.
    onlineManager.setOnline(true);
    await client.resumePausedMutations();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('keeps a read waiting, then runs it when the connection returns', async () => {
    const read = vi.fn(() => Promise.resolve('fresh'));
    const observer = new QueryObserver(client, { queryKey: ['device', 'd1'], queryFn: read });
    const results: string[] = [];
    const unsubscribe = observer.subscribe((r) => results.push(`${r.status}/${r.fetchStatus}`));
    expect(observer.getCurrentResult()).toMatchObject({ status: 'pending', fetchStatus: 'paused' });
    expect(read).not.toHaveBeenCalled();

    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('fresh'));
    expect(read).toHaveBeenCalledTimes(1);
    expect(results).toContain('success/idle');
    unsubscribe();
  });

  it('does not retry a refused read, and retries any other failure once', () => {
    const retry = QUERY_DEFAULTS.queries.retry;
    expect(retry(0, new ApiError({ status: 403, userMessage: 'Forbidden' }))).toBe(false);
    expect(retry(0, networkError())).toBe(true);
    expect(retry(1, networkError())).toBe(false);
  });
});
