import { describe, expect, it } from 'vitest';
import { parseBlock } from './sse.ts';

describe('parseBlock', () => {
  it('reads id, event and data, joining data lines', () => {
    expect(parseBlock('id: s:3\nevent: file_updated\ndata: {"a":\ndata: 1}')).toEqual({
      id: 's:3',
      event: 'file_updated',
      data: '{"a":\n1}',
    });
  });

  it('ignores heartbeats (comment lines) and blocks without data', () => {
    expect(parseBlock(': heartbeat')).toBeNull();
    expect(parseBlock('retry: 2000')).toBeNull();
  });
});
