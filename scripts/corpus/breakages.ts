// The breakages of the failure corpus: each one edits a fresh copy of a real project or changes its test command.
// Labels live apart, in test/corpus/labels.json, written before any classifier run.

export interface Edit {
  file: string;
  /** Exact text that must occur once; replaced by `replace`. Without `find`, `replace` is appended to the file. */
  find?: string;
  replace: string;
}

export interface Breakage {
  id: string;
  project: 'toolz' | 'boltons';
  edits: Edit[];
  /** Replaces the project's test command (argv, before taskloop's pytest options). */
  command?: string[];
  timeoutMs?: number;
  /** A flaky breakage is run until it fails (at most this many times). */
  runUntilFailure?: number;
}

export const projects = {
  toolz: { sdist: 'toolz==1.2.0', dir: 'toolz-1.2.0', command: ['python3', '-m', 'pytest'] },
  boltons: { sdist: 'boltons==26.2.0', dir: 'boltons-26.2.0', command: ['python3', '-m', 'pytest', 'tests'] },
} as const;

const hang = 'import time\n\n\ndef test_waits_for_service():\n    time.sleep(600)\n';
const flaky = 'import random\n\n\ndef test_sampled_within_half():\n    assert random.random() < 0.5\n';

export const breakages: Breakage[] = [
  // toolz
  {
    id: 'tz-wrong-constant',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/itertoolz.py',
        find: '    seq = iter(seq)\n    next(seq)\n    return next(seq)',
        replace: '    seq = iter(seq)\n    next(seq)\n    next(seq)\n    return next(seq)',
      },
    ],
  },
  {
    id: 'tz-missing-method',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/functoolz.py',
        find: '    def call(self, *args, **kwargs):',
        replace: '    def call_(self, *args, **kwargs):',
      },
    ],
  },
  {
    id: 'tz-positional-args',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/itertoolz.py',
        find: 'def take(n, seq):',
        replace: 'def take(seq):\n    return itertools.islice(seq, 3)\n\n\ndef _old_take(n, seq):',
      },
    ],
  },
  {
    id: 'tz-test-imports-missing-name',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/tests/test_itertoolz.py',
        find: 'from operator import add, mul\n',
        replace: 'from operator import add, mul\nfrom toolz.itertoolz import interleave_all\n',
      },
    ],
  },
  {
    id: 'tz-name-error',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/itertoolz.py',
        find: '    d = collections.defaultdict(int)\n    for item in seq:',
        replace: '    d = defaultdict(int)\n    for item in seq:',
      },
    ],
  },
  {
    id: 'tz-syntax-error',
    project: 'toolz',
    edits: [{ file: 'toolz/itertoolz.py', find: 'def second(seq):', replace: 'def second(seq)' }],
  },
  {
    id: 'tz-indentation-error',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/dicttoolz.py',
        find: '    rv = factory()\n    for d in dicts:\n        rv.update(d)',
        replace: '    rv = factory()\n      for d in dicts:\n        rv.update(d)',
      },
    ],
  },
  {
    id: 'tz-own-module-missing',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/itertoolz.py',
        find: 'from toolz.utils import no_default\n',
        replace: 'from toolz.utils import no_default\nfrom toolz.sorting import merge_sorted_fast\n',
      },
    ],
  },
  {
    id: 'tz-missing-fixture',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/tests/test_itertoolz.py',
        replace: '\n\ndef test_writes_partitions(tmp_pathx):\n    assert tmp_pathx.exists()\n',
      },
    ],
  },
  {
    id: 'tz-complex',
    project: 'toolz',
    command: ['python3', '-m', 'pytest', 'toolz/tests/test_dicttoolz.py'],
    edits: [
      {
        file: 'toolz/dicttoolz.py',
        find: "    factory = kwargs.pop('factory', dict)\n",
        replace:
          "    raise RuntimeError('mapping factories are being reworked')\n    factory = kwargs.pop('factory', dict)\n",
      },
    ],
  },
  {
    id: 'tz-novel-error',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/itertoolz.py',
        find: '    d = collections.defaultdict(int)\n    for item in seq:',
        replace: '    len(d := {}) // len(d)\n    d = collections.defaultdict(int)\n    for item in seq:',
      },
    ],
  },
  {
    id: 'tz-third-party-module',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/utils.py',
        find: 'def raises(err, lamda):',
        replace: 'import simplejson\n\n\ndef raises(err, lamda):',
      },
    ],
  },
  {
    id: 'tz-env-keyerror',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/tests/test_utils.py',
        replace:
          '\n\ndef test_reads_token():\n    import os\n    token = os.environ["TOOLZ_API_TOKEN"]\n    assert token\n',
      },
    ],
  },
  {
    id: 'tz-connection-refused',
    project: 'toolz',
    edits: [
      {
        file: 'toolz/tests/test_utils.py',
        replace:
          '\n\ndef test_service_answers():\n    import socket\n    with socket.create_connection(("127.0.0.1", 1), timeout=5) as conn:\n        assert conn\n',
      },
    ],
  },
  {
    id: 'tz-wrong-path',
    project: 'toolz',
    command: ['python3', '-m', 'pytest', 'toolz/tests/test_nope.py'],
    edits: [],
  },
  { id: 'tz-no-tests', project: 'toolz', command: ['python3', '-m', 'pytest', '-k', 'no_such_test_name'], edits: [] },
  { id: 'tz-hang', project: 'toolz', timeoutMs: 20_000, edits: [{ file: 'toolz/tests/test_hang.py', replace: hang }] },
  {
    id: 'tz-flaky',
    project: 'toolz',
    runUntilFailure: 10,
    edits: [{ file: 'toolz/tests/test_flaky.py', replace: flaky }],
  },
  { id: 'tz-command-not-found', project: 'toolz', command: ['pytest-not-installed'], edits: [] },
  // boltons
  {
    id: 'bo-wrong-constant',
    project: 'boltons',
    edits: [{ file: 'boltons/strutils.py', find: "conjunction: str = 'and'", replace: "conjunction: str = 'or'" }],
  },
  {
    id: 'bo-missing-method',
    project: 'boltons',
    edits: [
      {
        file: 'boltons/dictutils.py',
        find: '    def getlist(self, k, default=_MISSING):',
        replace: '    def get_list(self, k, default=_MISSING):',
      },
    ],
  },
  {
    id: 'bo-unexpected-keyword',
    project: 'boltons',
    edits: [
      {
        file: 'boltons/strutils.py',
        find: "def format_int_list(int_list, delim=',', range_delim='-', delim_space=False):",
        replace: "def format_int_list(int_list, delim=',', range_delim='-', space=False):\n    delim_space = space",
      },
    ],
  },
  {
    id: 'bo-test-imports-missing-name',
    project: 'boltons',
    edits: [
      {
        file: 'tests/test_strutils.py',
        find: 'from boltons import strutils\n',
        replace: 'from boltons import strutils\nfrom boltons.strutils import titlecase_all\n',
      },
    ],
  },
  {
    id: 'bo-syntax-error',
    project: 'boltons',
    edits: [
      {
        file: 'boltons/typeutils.py',
        find: "def make_sentinel(name='_MISSING', var_name=None):",
        replace: "def make_sentinel(name='_MISSING', var_name=None:",
      },
    ],
  },
  {
    id: 'bo-indentation-error',
    project: 'boltons',
    edits: [
      {
        file: 'boltons/strutils.py',
        find: "    return _camel2under_re.sub(r'_\\1', camel_string).lower()",
        replace: "   return _camel2under_re.sub(r'_\\1', camel_string).lower()",
      },
    ],
  },
  {
    id: 'bo-conftest-own-import',
    project: 'boltons',
    edits: [
      {
        file: 'tests/conftest.py',
        find: 'import sys\n',
        replace: 'import sys\nfrom boltons.testing_helpers import temp_env\n',
      },
    ],
  },
  {
    id: 'bo-missing-fixture',
    project: 'boltons',
    edits: [
      {
        file: 'tests/test_dictutils.py',
        replace: '\n\ndef test_omd_from_factory(omd_factory):\n    assert omd_factory() == {}\n',
      },
    ],
  },
  {
    id: 'bo-complex',
    project: 'boltons',
    command: ['python3', '-m', 'pytest', 'tests/test_dictutils.py'],
    edits: [
      {
        file: 'boltons/dictutils.py',
        find: '    def __init__(self, *args, **kwargs):\n        if len(args) > 1:',
        replace:
          "    def __init__(self, *args, **kwargs):\n        raise RuntimeError('multidicts are being reworked')\n        if len(args) > 1:",
      },
    ],
  },
  {
    id: 'bo-novel-error',
    project: 'boltons',
    edits: [
      {
        file: 'boltons/strutils.py',
        find: "    return _camel2under_re.sub(r'_\\1', camel_string).lower()",
        replace: "    len(camel_string) // 0\n    return _camel2under_re.sub(r'_\\1', camel_string).lower()",
      },
    ],
  },
  {
    id: 'bo-third-party-module',
    project: 'boltons',
    edits: [{ file: 'boltons/strutils.py', find: 'import uuid\n', replace: 'import uuid\nimport ujson\n' }],
  },
  {
    id: 'bo-env-message',
    project: 'boltons',
    edits: [
      {
        file: 'tests/test_strutils.py',
        replace:
          '\n\ndef test_remote_slugs():\n    import os\n    token = os.environ.get("BOLTONS_API_KEY")\n    if not token:\n        raise RuntimeError("environment variable BOLTONS_API_KEY is not set")\n',
      },
    ],
  },
  {
    id: 'bo-connection-refused',
    project: 'boltons',
    edits: [
      {
        file: 'tests/test_urlutils.py',
        replace:
          '\n\ndef test_fetch_local_url():\n    import urllib.request\n    with urllib.request.urlopen("http://127.0.0.1:1/", timeout=5) as response:\n        assert response.status == 200\n',
      },
    ],
  },
  {
    id: 'bo-unknown-option',
    project: 'boltons',
    command: ['python3', '-m', 'pytest', 'tests', '--no-such-option'],
    edits: [],
  },
  { id: 'bo-wrong-dir', project: 'boltons', command: ['python3', '-m', 'pytest', 'test/'], edits: [] },
  {
    id: 'bo-no-tests',
    project: 'boltons',
    command: ['python3', '-m', 'pytest', 'tests', '-m', 'no_such_marker'],
    edits: [],
  },
  { id: 'bo-hang', project: 'boltons', timeoutMs: 20_000, edits: [{ file: 'tests/test_hang.py', replace: hang }] },
  {
    id: 'bo-output-too-large',
    project: 'boltons',
    edits: [
      {
        file: 'tests/test_big_output.py',
        replace:
          "def test_prints_a_lot():\n    for _ in range(70):\n        print('x' * (1024 * 1024))\n    assert False\n",
      },
    ],
  },
  { id: 'bo-flaky', project: 'boltons', runUntilFailure: 10, edits: [{ file: 'tests/test_flaky.py', replace: flaky }] },
];
