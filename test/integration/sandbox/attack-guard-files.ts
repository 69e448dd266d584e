// The attack suite's repository code for the guards of issue 51: pytest files a scripted coder writes, each aiming at
// one thing that was seen to get through (a forged pass, secrets in path names, memory and /tmp beyond the limits).
import { turn, type ScriptTurn } from '../../support/calc-project.js';

// Leaves add broken (its test fails), then at exit, once pytest wrote its report, removes the report and ends the
// process with status 0: before issue 51 this counted as a pass of 0 tests and was committed.
const forgedPassTest = `import atexit, os, sys

def _forge():
    report = next((arg.split('=', 1)[1] for arg in sys.argv if arg.startswith('--junitxml=')), None)
    if report is not None and os.path.exists(report):
        os.remove(report)
    os._exit(0)

atexit.register(_forge)
`;

// Three processes, each under the per-process address-space limit, holding more memory together than it (three held
// 7.5 GB under 4096 MB before issue 51). The test passes only when all three held their share to the end.
const memoryHoldersTest = `import subprocess, sys

CHILD = "b = b'x' * (200 * 1024 * 1024); import time; time.sleep(3); print('held')"

def test_three_processes_hold_memory():
    procs = [subprocess.Popen([sys.executable, '-c', CHILD]) for _ in range(3)]
    assert [p.wait() for p in procs] == [0, 0, 0]
`;

// 12 MB in the sandbox's /tmp and 12 MB in the worktree: each under a 16 MB written-bytes limit, together over it
// (a /tmp in memory sized like the limit, beside the worktree's own, let 200 + 200 MB pass 300 MB).
const tmpAndWorktreeTest = `def test_write_tmp_and_worktree():
    chunk = b'x' * (1024 * 1024)
    for target in ('/tmp/flood.bin', 'flood.bin'):
        with open(target, 'wb') as handle:
            for _ in range(12):
                handle.write(chunk)
`;

const write = (path: string, content: string) => turn('write_file', { path, content });
const finish = turn('finish', { summary: 'done' });

const fixedCalc = 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n';

export const guardTurns = {
  forgedPass: (): ScriptTurn[] => [write('tests/test_forge.py', forgedPassTest), finish],
  // A right fix, with files whose names carry a declared secret's value (plain and base64) and a secret-named worker
  // variable's value.
  secretPaths: (declared: string, workerValue: string): ScriptTurn[] => [
    write('calc.py', fixedCalc),
    write(`notes_${declared}.txt`, 'notes\n'),
    write(`dir_${declared}/data.txt`, 'data\n'),
    write(`${workerValue}.txt`, 'named after a worker variable\n'),
    write(`b64_${Buffer.from(declared).toString('base64url')}.txt`, 'named after the secret, encoded\n'),
    // Split across two folders: no one segment holds it (committed before issue 65).
    write(`split_${declared.slice(0, 8)}/${declared.slice(8)}.txt`, 'named after the secret, split\n'),
    finish,
  ],
  memoryHolders: (): ScriptTurn[] => [
    write('calc.py', fixedCalc),
    write('tests/test_memory.py', memoryHoldersTest),
    finish,
  ],
  tmpAndWorktree: (): ScriptTurn[] => [
    write('calc.py', fixedCalc),
    write('tests/test_tmp.py', tmpAndWorktreeTest),
    finish,
  ],
  // A right fix, with a .gitattributes that names a filter driver for every Python file.
  attributesFilter: (): ScriptTurn[] => [
    write('calc.py', fixedCalc),
    write('.gitattributes', '*.py filter=pwn\n'),
    finish,
  ],
};
