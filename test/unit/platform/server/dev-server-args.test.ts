import { describe, expect, it } from 'vitest';
import { devServerArgs } from '../../../../platform/server/dev-server.js';

const flagValues = (args: string[], flag: string) =>
  args.flatMap((arg, index) => (arg === flag ? [args[index + 1]] : []));

describe('the dev server command line', () => {
  it('registers every taskloop search attribute with its type', () => {
    const args = devServerArgs({ cliPath: 'temporal' });
    expect(flagValues(args, '--search-attribute')).toEqual([
      'TaskId=Keyword',
      'Project=Keyword',
      'Phase=Keyword',
      'TaskStatus=Keyword',
      'FailureClass=Keyword',
      'Attempt=Int',
      'FailurePattern=Keyword',
    ]);
  });

  it('keeps state in SQLite with WAL pragmas when given a file, and in memory otherwise', () => {
    const durable = devServerArgs({ cliPath: 'temporal', dbFile: '/data/t.db' });
    expect(flagValues(durable, '--db-filename')).toEqual(['/data/t.db']);
    expect(flagValues(durable, '--sqlite-pragma')).toEqual(['journal_mode=wal', 'synchronous=normal']);
    expect(devServerArgs({ cliPath: 'temporal' })).not.toContain('--db-filename');
  });

  it('serves the Web UI on the chosen port unless headless', () => {
    expect(flagValues(devServerArgs({ cliPath: 'temporal', port: 7300, uiPort: 8300 }), '--ui-port')).toEqual(['8300']);
    expect(flagValues(devServerArgs({ cliPath: 'temporal', port: 7300 }), '--port')).toEqual(['7300']);
    const headless = devServerArgs({ cliPath: 'temporal', headless: true });
    expect(headless).toContain('--headless');
    expect(headless).not.toContain('--ui-port');
  });

  it('passes server settings as dynamic config values, each value as JSON', () => {
    const args = devServerArgs({ cliPath: 'temporal', dynamicConfig: { 'a.b': '2s', 'c.d': 3 } });
    expect(flagValues(args, '--dynamic-config-value')).toEqual(['a.b="2s"', 'c.d=3']);
    expect(devServerArgs({ cliPath: 'temporal' })).not.toContain('--dynamic-config-value');
  });
});
