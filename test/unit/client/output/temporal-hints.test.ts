import { describe, expect, it } from 'vitest';
import { formatTemporalHints } from '../../../../client/output/temporal-hints.js';

describe('formatTemporalHints', () => {
  it("prints runnable temporal commands with the project's real ids and the binary's path", () => {
    const lines = formatTemporalHints({
      bin: '/x/temporal',
      address: '127.0.0.1:7233',
      project: 'demo-abc',
      taskIds: ['fix-add', 'fix-mean'],
    });
    expect(lines[0]).toBe(
      'The temporal CLI on these runs (the query needs a running `taskloop worker`; binary: /x/temporal):',
    );
    expect(lines[1]).toBe(
      '  /x/temporal workflow query  --address 127.0.0.1:7233 --workflow-id task-demo-abc-fix-add --type state',
    );
    expect(lines[3]).toContain(`--query 'ExecutionStatus="Failed" AND Project="demo-abc"'`);
  });
});
