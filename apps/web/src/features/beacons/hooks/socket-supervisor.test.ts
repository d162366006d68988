import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { superviseSocket } from './socket-supervisor.ts';

/** A socket as the supervisor sees it; `connect()` is what a real one does to reconnect. */
class FakeSocket extends EventEmitter {
  active = false;
  connect = vi.fn();
}

describe('superviseSocket', () => {
  let socket: FakeSocket;
  let session: { used: string; current: string };
  let renew: ReturnType<typeof vi.fn<() => Promise<boolean>>>;
  let connected: boolean[];
  let dispose: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    socket = new FakeSocket();
    session = { used: 'token-1', current: 'token-1' };
    renew = vi.fn(async () => {
      session.current = 'token-2';
      return true;
    });
    connected = [];
    ({ dispose } = superviseSocket(socket, {
      usedToken: () => session.used,
      currentToken: () => session.current,
      renew,
      onConnected: (c) => connected.push(c),
      retryMs: 3_000,
    }));
    socket.emit('connection_response', { status: 'connected' });
  });
  afterEach(() => {
    dispose();
    vi.useRealTimers();
  });

  const endedByServer = (reason: string) => {
    socket.emit('connection_ended', { reason });
    socket.emit('disconnect', 'io server disconnect');
  };

  it('ended at its token’s expiry: renews the token, then connects again at once', async () => {
    endedByServer('token_expired');
    expect(connected).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(0);
    expect(renew).toHaveBeenCalledOnce();
    expect(socket.connect).toHaveBeenCalledOnce();
  });

  it('ended at its token’s expiry after the session already renewed it: connects at once without renewing', async () => {
    session.current = 'token-2';
    endedByServer('token_expired');
    expect(socket.connect).toHaveBeenCalledOnce();
    expect(renew).not.toHaveBeenCalled();
  });

  it('a handshake refused for an expired token: renews once; refused again, it waits before trying', async () => {
    socket.emit('disconnect', 'transport close');
    socket.emit('connect_error', Object.assign(new Error('Authentication required'), { data: { code: 401 } }));
    await vi.advanceTimersByTimeAsync(0);
    expect(renew).toHaveBeenCalledOnce();
    expect(socket.connect).toHaveBeenCalledOnce();
    session.used = 'token-2';
    socket.emit('connect_error', Object.assign(new Error('Authentication required'), { data: { code: 401 } }));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(socket.connect).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.connect).toHaveBeenCalledTimes(2);
    expect(renew).toHaveBeenCalledOnce();
  });

  it('revoked: stays closed, and renews nothing', async () => {
    endedByServer('revoked');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.connect).not.toHaveBeenCalled();
    expect(renew).not.toHaveBeenCalled();
  });

  it('a renewal the server refuses leaves the socket closed', async () => {
    renew.mockResolvedValueOnce(false);
    endedByServer('token_expired');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.connect).not.toHaveBeenCalled();
  });
});
