import { describe, expect, it } from 'vitest';
import { readDevServerArgs } from '../../../../platform/server/db-holders.js';
import { devServerArgs } from '../../../../platform/server/dev-server.js';

describe("reading a dev server's command line", () => {
  it('finds the address and database of the command line taskloop starts', () => {
    const argv = ['/x/temporal', ...devServerArgs({ cliPath: 'temporal', port: 7300, dbFile: '/data/t.db' })];
    expect(readDevServerArgs(42, argv)).toEqual({ pid: 42, address: '127.0.0.1:7300', dbFile: '/data/t.db' });
  });

  it("takes start-dev's defaults, joined flags and a database relative to the server's folder", () => {
    expect(readDevServerArgs(7, ['temporal', 'server', 'start-dev', '--db-filename=t.db'], '/srv')).toEqual({
      pid: 7,
      address: 'localhost:7233',
      dbFile: '/srv/t.db',
    });
    expect(readDevServerArgs(7, ['temporal', 'server', 'start-dev', '-p', '9000'])).toEqual({
      pid: 7,
      address: 'localhost:9000',
      dbFile: undefined,
    });
  });

  it('ignores other programs, even ones that mention start-dev', () => {
    expect(readDevServerArgs(1, ['grep', 'start-dev'])).toBeUndefined();
    expect(readDevServerArgs(1, ['temporal', 'workflow', 'list'])).toBeUndefined();
  });
});
