// Checks a worker makes before it serves: the tools its activities run must exist, or it says what to install.
import { execa } from 'execa';

export class PreflightError extends Error {
  override name = 'PreflightError';
}

/** Python with pytest runs every task's tests; git makes every worktree. */
export async function checkWorkerTools(env: NodeJS.ProcessEnv = process.env): Promise<{ python: string; git: string }> {
  const pythonBin = env.TASKLOOP_PYTHON ?? 'python3';
  const python = await execa(pythonBin, ['-c', 'import sys, pytest; print(sys.version.split()[0], pytest.__version__)'], { reject: false, env });
  if (python.code === 'ENOENT') {
    throw new PreflightError(`${pythonBin} was not found on PATH; install Python 3 (e.g. apt-get install python3) or set TASKLOOP_PYTHON to its path`);
  }
  if (python.failed) {
    throw new PreflightError(`pytest is not importable by ${pythonBin}; install it with: ${pythonBin} -m pip install pytest`);
  }
  const git = await execa('git', ['--version'], { reject: false, env });
  if (git.failed) throw new PreflightError('git was not found on PATH; install git (e.g. apt-get install git)');
  return { python: python.stdout.trim(), git: git.stdout.trim() };
}
