// bin/taskloop starts the commands that only ask Temporal something without NODE_EXTRA_CA_CERTS, which Node 20
// reads before any script runs. Node warns when that file cannot be read: a missing file shows which starts read it.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';

const run = promisify(execFile);
const bin = path.join(projectRoot, 'bin', 'taskloop');

async function readsExtraCerts(args: string[], env: NodeJS.ProcessEnv = {}): Promise<boolean> {
  const { stderr } = await run(bin, args, { env: { ...process.env, NODE_EXTRA_CA_CERTS: '/nonexistent.pem', ...env } });
  return stderr.includes('Ignoring extra certs from `/nonexistent.pem`');
}

describe('bin/taskloop and NODE_EXTRA_CA_CERTS', () => {
  it('starts help, --help and --version without reading it', async () => {
    expect(await readsExtraCerts(['help', 'status'])).toBe(false);
    expect(await readsExtraCerts(['--help'])).toBe(false);
    expect(await readsExtraCerts(['--version'])).toBe(false);
  });

  it('finds the command after the global flags and their values', async () => {
    // "worker" here is the namespace, not the command.
    expect(await readsExtraCerts(['--namespace', 'worker', 'help', 'list'])).toBe(false);
    expect(await readsExtraCerts(['--no-color', 'worker', '--help'])).toBe(true);
  });

  it('keeps it for commands that may call providers or start processes', async () => {
    expect(await readsExtraCerts(['worker', '--help'])).toBe(true);
    expect(await readsExtraCerts(['clean', '--help'])).toBe(true);
  });

  it('keeps it when OpenTelemetry traces may go over HTTPS', async () => {
    expect(
      await readsExtraCerts(['help', 'status'], { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example:4318' }),
    ).toBe(true);
  });
});
