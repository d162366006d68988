import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { CommandType, ReplyMessage } from '@fleet/shared/protocol';
import type { CommandContext } from './command-context.ts';
import type { CommandRow } from './present-command.ts';
import { handlersFor, replyOutcome, type SettleHandler } from './settle-handlers.ts';
import { settleAssignments, settleReplies, settleReply } from './settle-reply.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const render = (q: Parameters<PgDialect['sqlToQuery']>[0]) => new PgDialect().sqlToQuery(q);
const success = (data?: Record<string, unknown>): ReplyMessage => ({
  id: ID,
  status: 'success',
  ...(data && { data }),
});
const failure = (error?: string): ReplyMessage => ({ id: ID, status: 'error', ...(error && { error }) });

/** Handlers that write down when they run. */
function registry(calls: string[]): SettleHandler[] {
  const named = (name: string, types: CommandType[], extra: Partial<SettleHandler> = {}): SettleHandler => ({
    types,
    settled: ({ row }) => void calls.push(`${name}:${row.type}:${row.state}`),
    ...extra,
  });
  return [
    named('firmware', ['dfu'], {
      completesProgress: true,
      refuseSuccess: () => ({ when: sql`payload->>'version' <> 'x'`, error: sql`'wrong version'` }),
    }),
    named('allocation', ['allocate']),
    named('state', ['refresh', 'dfu']),
  ];
}

describe('replyOutcome', () => {
  it.each([
    ['a success', success(), { state: 'succeeded', error: null }],
    ['a success with data', success({ fw_version: '2.0.0' }), { state: 'succeeded', error: null }],
    ['an error with its reason', failure('Battery too low'), { state: 'failed', error: 'Battery too low' }],
    ['an error without one', failure(), { state: 'failed', error: 'The device reported an error' }],
  ])('%s', (_, reply, expected) => {
    expect(replyOutcome(reply)).toEqual(expected);
  });
});

describe('handlersFor', () => {
  const calls: string[] = [];
  const handlers = registry(calls);
  it.each<[CommandType, number[]]>([
    ['dfu', [0, 2]],
    ['allocate', [1]],
    ['refresh', [2]],
    ['reboot', []],
    ['vibrate', []],
    ['return', []],
  ])('%s runs handlers %j, in registration order', (type, expected) => {
    expect(handlersFor(handlers, type)).toEqual(expected.map((i) => handlers[i]));
  });
});

describe('settleAssignments', () => {
  const handlers = registry([]);
  it.each([
    ['a success is judged by the owners that refuse successes', success(), true, true],
    ['a failure is not judged, and leaves progress alone', failure('no'), false, false],
  ])('%s', (_, reply, judged, completes) => {
    const { sql: text, params } = render(settleAssignments(reply, handlers));
    expect(text.includes(`payload->>'version' <> 'x'`)).toBe(judged);
    expect(text.includes(`'wrong version'`)).toBe(judged);
    expect(text.includes('then 100 else progress')).toBe(completes);
    expect(params).toContain(replyOutcome(reply).state);
  });

  it('with no owner registered, a success is the reply itself', () => {
    const { sql: text } = render(settleAssignments(success(), []));
    expect(text).toContain('case when false then');
    expect(text).toContain('progress = progress');
  });
});

describe('settleReply', () => {
  /** A context whose database answers `row` to the settling update and writes down every step. */
  function fake(row: Partial<CommandRow> | null) {
    const calls: string[] = [];
    const ctx = {
      db: {
        execute: async () => {
          calls.push('update');
          return {
            rows: row ? [{ id: ID, device: 'd1', error: null, latency_ms: 12, replied_at: new Date(0), ...row }] : [],
          };
        },
      },
      progress: { flush: async () => void calls.push('flush progress') },
      waiters: { settle: async (s: { state: string }) => void calls.push(`answer:${s.state}`) },
      settle: registry(calls),
      settledListeners: [
        (rows: Array<{ type: string; state: string }>) => calls.push(`told:${rows[0]!.type}:${rows[0]!.state}`),
      ],
      onError: (err: unknown) => {
        throw err;
      },
    } as unknown as CommandContext;
    return { ctx, calls };
  }

  it.each<[string, Partial<CommandRow>, string[]]>([
    ['a firmware update', { type: 'dfu', state: 'succeeded' }, ['firmware:dfu:succeeded', 'state:dfu:succeeded']],
    ['a refused allocation', { type: 'allocate', state: 'failed' }, ['allocation:allocate:failed']],
    ['a refresh', { type: 'refresh', state: 'succeeded' }, ['state:refresh:succeeded']],
    ['a reboot', { type: 'reboot', state: 'failed' }, []],
  ])(
    '%s: progress flushed, row settled, its owners run, the listeners told, then the caller answered',
    async (_, row, owners) => {
      const { ctx, calls } = fake(row);
      expect(await settleReply(ctx, 'd1', success())).toBe(true);
      expect(calls).toEqual([
        'flush progress',
        'update',
        ...owners,
        `told:${row.type}:${row.state}`,
        `answer:${row.state}`,
      ]);
    },
  );

  it('a reply for no open command settles nothing and answers no one', async () => {
    const { ctx, calls } = fake(null);
    expect(await settleReply(ctx, 'd1', success())).toBe(false);
    expect(calls).toEqual(['flush progress', 'update']);
  });
});

describe('settleReplies', () => {
  const ID2 = '00000000-0000-4000-8000-000000000002';
  it('settles a batch in one statement, each row by its reply, and a second reply to one command counts for nothing', async () => {
    const statements: Array<{ sql: string; params: unknown[] }> = [];
    const ctx = {
      db: {
        execute: async (q: Parameters<PgDialect['sqlToQuery']>[0]) => {
          statements.push(render(q));
          return {
            rows: [
              {
                id: ID,
                device: 'd1',
                type: 'reboot',
                state: 'succeeded',
                error: null,
                latency_ms: 1,
                replied_at: new Date(0),
              },
              {
                id: ID2,
                device: 'd2',
                type: 'reboot',
                state: 'failed',
                error: 'no',
                latency_ms: 1,
                replied_at: new Date(0),
              },
            ],
          };
        },
      },
      progress: { flush: async () => {} },
      waiters: { settle: async () => {} },
      settle: [],
      settledListeners: [],
      onError: (err: unknown) => {
        throw err;
      },
    } as unknown as CommandContext;
    const found = await settleReplies(ctx, [
      { device: 'd1', reply: success() },
      { device: 'd2', reply: { id: ID2, status: 'error', error: 'no' } },
      { device: 'd1', reply: failure('late') },
    ]);
    expect(found).toEqual([true, true, false]);
    expect(statements).toHaveLength(1);
    const { sql: text, params } = statements[0]!;
    expect(text).toContain('case v.reply_i when');
    // The repeated reply is not in the statement: two rows in the record set, two outcomes.
    const recordset = params.find((p) => typeof p === 'string' && p.startsWith('[{'));
    expect(JSON.parse(recordset as string)).toEqual([
      { reply_i: 0, reply_id: ID, reply_device: 'd1' },
      { reply_i: 1, reply_id: ID2, reply_device: 'd2' },
    ]);
    expect(params).toContain('no');
    expect(params).not.toContain('late');
  });
});
