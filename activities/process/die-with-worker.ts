// A process the worker starts must not outlive it, even when the worker is killed with SIGKILL (no exit handler
// runs then). `setpriv --pdeathsig KILL` (util-linux, like prlimit) asks the kernel to kill the command when the
// worker dies; the setting survives exec, so it holds for the program setpriv runs (prlimit, then the command).
// What that command starts itself is its caller's to end: the test runs' process groups are recorded and swept.
import path from 'node:path';
import { findProgram } from '../sandbox/find-program.js';

let setpriv: string | null | undefined;

/** argv run so that the kernel kills it when the worker dies (unchanged where setpriv is missing). */
export function dieWithWorkerArgs(argv: string[]): string[] {
  if (setpriv === undefined) {
    const dirs = (process.env.PATH ?? '').split(':').filter((dir) => path.isAbsolute(dir));
    setpriv = dirs.map((dir) => path.join(dir, 'setpriv')).find((file) => findProgram(file, '', '/').found) ?? null;
  }
  return setpriv ? [setpriv, '--pdeathsig', 'KILL', '--', ...argv] : argv;
}
