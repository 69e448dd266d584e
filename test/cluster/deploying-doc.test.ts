// docs/deploying.md's self-hosted command, run as written (on a free port and a data folder of the test's own):
// it serves with the namespace and the search attributes, and Ctrl-C stops the server and PostgreSQL.
import { execa } from 'execa';
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { findFreePort } from '../../platform/server/ports.js';
import { taskloopBin } from '../support/cli.js';
import { documentedCommands, waitForText } from '../support/documented-commands.js';

describe('docs/deploying.md', () => {
  it('starts the self-hosted stack with `taskloop server --production` and stops it with Ctrl-C', async () => {
    const [line = ''] = await documentedCommands('docs/deploying.md', 'production-server');
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-deploying-'));
    await chmod(dataDir, 0o711);
    const port = await findFreePort();
    const args = line
      .replace(/^npx taskloop /, '')
      .replace('--port 7233', `--port ${port}`)
      .replace('--data .taskloop/cluster', `--data ${path.join(dataDir, 'cluster')}`)
      .split(' ');
    const server = execa('node', [taskloopBin, ...args], { all: true, reject: false });
    await waitForText(server, 'Ctrl-C stops it', 180_000);
    const attributes = await execa(inject('temporalCli'), [
      'operator',
      'search-attribute',
      'list',
      '--address',
      `127.0.0.1:${port}`,
    ]);
    for (const name of ['TaskId', 'Project', 'Phase', 'TaskStatus', 'FailureClass', 'Attempt', 'FailurePattern'])
      expect(attributes.stdout).toContain(name);
    server.kill('SIGINT');
    const ended = await server;
    expect(ended.exitCode, ended.all).toBe(0);
    const left = await execa('pgrep', ['-f', path.join(dataDir, 'cluster')], { reject: false });
    expect(left.stdout.trim()).toBe('');
  });
});
