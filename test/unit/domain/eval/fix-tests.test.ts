import { describe, expect, it } from 'vitest';
import {
  classifyTestChanges,
  isTestPath,
  rewrittenTestConflicts,
  testsChangedByDiff,
} from '../../../../domain/eval/fix-tests.js';

const diff = `diff --git a/src/lib.py b/src/lib.py
--- a/src/lib.py
+++ b/src/lib.py
@@ -1,2 +1,2 @@ def f():
-    return 1
+    return 2
diff --git a/tests/test_lib.py b/tests/test_lib.py
--- a/tests/test_lib.py
+++ b/tests/test_lib.py
@@ -1,6 +1,10 @@
 def test_old():
-    assert f() == 1
+    assert f() == 2
 
 
 def test_same():
     assert True
+
+
+def test_new():
+    assert f() != 1
@@ -20,3 +24,4 @@ class TestThing:
     def test_method(self):
         x = 1
+        assert x
`;

describe('testsChangedByDiff', () => {
  it('finds the tests a fix adds and the tests whose body it edits, with their class, and no others', () => {
    expect(testsChangedByDiff(diff).sort()).toEqual([
      'tests/test_lib.py::TestThing::test_method',
      'tests/test_lib.py::test_new',
      'tests/test_lib.py::test_old',
    ]);
  });

  it("tells the tests a fix adds from the existing tests it rewrites (their old versions are the task's own)", () => {
    expect(classifyTestChanges(diff)).toEqual({
      added: ['tests/test_lib.py::test_new'],
      edited: ['tests/test_lib.py::test_old', 'tests/test_lib.py::TestThing::test_method'],
    });
    const renamedSignature = [
      'diff --git a/tests/test_a.py b/tests/test_a.py',
      '--- a/tests/test_a.py',
      '+++ b/tests/test_a.py',
      '@@ -1,2 +1,2 @@',
      '-def test_x(tmp_path):',
      '+def test_x(tmp_path, monkeypatch):',
      '     assert 1',
    ].join('\n');
    expect(classifyTestChanges(renamedSignature)).toEqual({ added: [], edited: ['tests/test_a.py::test_x'] });
  });

  it('names the rewritten tests whose old versions fail on the fixed code, with how', () => {
    const oldOnFix = new Map([
      ['tests/test_lib.py::test_old', 'failed'],
      ['tests/test_lib.py::TestThing::test_method', 'passed'],
      ['tests/test_lib.py::test_p[1]', 'passed'],
      ['tests/test_lib.py::test_p[2]', 'error'],
    ]);
    expect(
      rewrittenTestConflicts(
        ['tests/test_lib.py::test_old', 'tests/test_lib.py::TestThing::test_method', 'tests/test_lib.py::test_p'],
        oldOnFix,
      ),
    ).toEqual([
      { id: 'tests/test_lib.py::test_old', outcome: 'failed' },
      { id: 'tests/test_lib.py::test_p', outcome: 'error' },
    ]);
  });

  it('finds none in a diff that touches no test file', () => {
    expect(testsChangedByDiff(diff.split('diff --git a/tests')[0] ?? '')).toEqual([]);
  });

  it('knows pytest test file names', () => {
    expect(['tests/test_a.py', 'a_test.py', 'tests/conftest.py', 'test_a.txt'].map(isTestPath)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
