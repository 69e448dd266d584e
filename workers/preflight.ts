// Checks a worker makes before it serves: the tools its activities run must exist, or it says what to install.
import { Connection } from '@temporalio/client';
import { execa } from 'execa';
import type { TemporalTarget } from '../platform/connection.js';
import { probeBwrap, type WorkerSandbox } from '../activities/sandbox/index.js';
import { searchAttributeCliPairs } from '../workflows/search-attributes.js';

export class PreflightError extends Error {
  override name = 'PreflightError';
}

/** Python with pytest runs every task's tests; git makes every worktree. */
export async function checkWorkerTools(env: NodeJS.ProcessEnv = process.env): Promise<{ python: string; git: string }> {
  const pythonBin = env.TASKLOOP_PYTHON ?? 'python3';
  const python = await execa(
    pythonBin,
    ['-c', 'import sys, pytest; print(sys.version.split()[0], pytest.__version__)'],
    { reject: false, env },
  );
  if (python.code === 'ENOENT') {
    throw new PreflightError(
      `${pythonBin} was not found on PATH; install Python 3 (e.g. apt-get install python3) or set TASKLOOP_PYTHON to its path`,
    );
  }
  if (python.failed) {
    throw new PreflightError(
      `pytest is not importable by ${pythonBin}; install it with: ${pythonBin} -m pip install pytest`,
    );
  }
  const git = await execa('git', ['--version'], { reject: false, env });
  if (git.failed) throw new PreflightError('git was not found on PATH; install git (e.g. apt-get install git)');
  return { python: python.stdout.trim(), git: git.stdout.trim() };
}

/**
 * Workflows upsert taskloop's search attributes at every phase; on a server without them every workflow task
 * would fail, so the worker refuses to start and says how to create the missing ones.
 */
export async function checkSearchAttributes(target: TemporalTarget): Promise<void> {
  const connection = await Connection.connect({ ...target.connectionOptions, connectTimeout: '5s' });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: target.namespace });
    const missing = searchAttributeCliPairs().filter(({ name }) => !customAttributes || !(name in customAttributes));
    if (missing.length === 0) return;
    const commands = missing.map(
      ({ name, type }) =>
        `temporal operator search-attribute create --namespace ${target.namespace} --name ${name} --type ${type}`,
    );
    throw new PreflightError(
      `namespace ${target.namespace} at ${target.address} lacks the search attributes ${missing.map((m) => m.name).join(', ')}; ` +
        `restart the dev server with \`taskloop server\` or create them: ${commands.join(' && ')}`,
    );
  } finally {
    await connection.close();
  }
}

/**
 * In the default mode every test run goes through bubblewrap: a worker where it cannot start a sandbox refuses to
 * start, naming the package and the explicit opt-out. In `none` mode it says so loudly instead.
 */
export async function checkSandbox(
  sandbox: WorkerSandbox,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (sandbox.mode === 'none') {
    log(
      '  !!! SANDBOX DISABLED (--sandbox none / TASKLOOP_SANDBOX=none): repository code and its tests run as this user,',
    );
    log('  !!! with its files, network and processes; every test record says sandbox mode "none"');
    return;
  }
  const probe = await probeBwrap(env.PATH);
  if (!probe.ok) {
    throw new PreflightError(
      `the test sandbox does not work on this host: ${probe.reason}. Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; ` +
        'Fedora: dnf install bubblewrap) and allow unprivileged user namespaces, or run without a sandbox, explicitly: ' +
        'taskloop worker --sandbox none (or TASKLOOP_SANDBOX=none)',
    );
  }
  const { limits } = sandbox;
  log(
    `  sandbox: bwrap (${probe.version}); limits: ${limits.memoryMb} MB memory, ${limits.processes} processes, ${limits.fileSizeMb} MB files, ${limits.cpuSeconds} s CPU, ${limits.outputMb} MB output, ${limits.writtenMb} MB written, ${limits.files} new files`,
  );
}
