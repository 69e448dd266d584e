import { describe, expect, it } from 'vitest';
import { toCaseId } from '../../../../activities/tests/case-ids.js';
import { decodeEntities, parseJunitXml } from '../../../../activities/tests/junit.js';

const xml = `<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="5">
<testcase classname="tests.test_calc" name="test_add" time="0.001" />
<testcase classname="tests.test_calc.TestCalc" name="test_sub[a&gt;b]" time="0.001"><failure message="assert 1 == 2">def test_sub(): &lt;failure&gt;</failure></testcase>
<testcase classname="tests.test_calc" name="test_skip" time="0"><skipped type="pytest.skip" message="later" /></testcase>
<testcase classname="" name="tests.test_broken" time="0"><error message="collection failure">ImportError</error></testcase>
<testcase classname="tests.test_calc" name="test_out"><system-out><![CDATA[<failure>not a tag</failure>]]></system-out></testcase>
</testsuite></testsuites>`;

const files = new Set(['tests/test_calc.py', 'tests/test_broken.py']);
const exists = (file: string) => files.has(file);

describe('parseJunitXml', () => {
  it('reads each testcase with its outcome from failure, error and skipped children', () => {
    expect(parseJunitXml(xml).map((entry) => entry.outcome)).toEqual([
      'passed',
      'failed',
      'skipped',
      'error',
      'passed',
    ]);
  });

  it('decodes entities in attribute values', () => {
    expect(parseJunitXml(xml)[1]?.name).toBe('test_sub[a>b]');
    expect(decodeEntities('&lt;&#65;&#x42;&amp;&quot;&unknown;')).toBe('<AB&"&unknown;');
  });

  it('returns no cases for text that is not JUnit XML', () => {
    expect(parseJunitXml('not xml at all')).toEqual([]);
  });
});

describe('toCaseId', () => {
  it('builds path::name and path::Class::name from dotted classnames', () => {
    const ids = parseJunitXml(xml).map((entry) => toCaseId(entry, exists));
    expect(ids).toEqual([
      'tests/test_calc.py::test_add',
      'tests/test_calc.py::TestCalc::test_sub[a>b]',
      'tests/test_calc.py::test_skip',
      'tests/test_broken.py',
      'tests/test_calc.py::test_out',
    ]);
  });

  it('uses the file attribute when pytest writes one (xunit1)', () => {
    const entry = {
      classname: 'pkg.tests.test_x.TestY',
      name: 'test_z',
      file: 'pkg/tests/test_x.py',
      outcome: 'passed' as const,
    };
    expect(toCaseId(entry, () => false)).toBe('pkg/tests/test_x.py::TestY::test_z');
  });

  it('falls back to capitalised segments as classes when no module file is found', () => {
    const entry = { classname: 'suite.test_mod.TestOuter.TestInner', name: 'test_it', outcome: 'passed' as const };
    expect(toCaseId(entry, () => false)).toBe('suite/test_mod.py::TestOuter::TestInner::test_it');
  });
});
