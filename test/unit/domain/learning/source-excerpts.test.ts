import { describe, expect, it } from 'vitest';
import {
  failureSymbols,
  findDefinition,
  importedModules,
  moduleFiles,
  nodeIdsIn,
  pythonFilesIn,
} from '../../../../domain/learning/source-excerpts.js';

const source =
  'import os\n\n\n@cached\ndef mean(values,\n         weights=None):\n    total = sum(values)\n\n    return total / len(values)\n\n\nclass Stats:\n    def spread(self):\n        return 1\n';

describe('source excerpts', () => {
  it('finds a definition with its decorators and body, or only its signature', () => {
    expect(findDefinition(source, 'mean')).toBe(
      '@cached\ndef mean(values,\n         weights=None):\n    total = sum(values)\n\n    return total / len(values)',
    );
    expect(findDefinition(source, 'mean', { signatureOnly: true })).toBe(
      '@cached\ndef mean(values,\n         weights=None):',
    );
    expect(findDefinition(source, 'spread')).toBe('    def spread(self):\n        return 1');
    expect(findDefinition(source, 'median')).toBeUndefined();
  });

  it('reads node ids, files, symbols and imports from failure text', () => {
    const evidence = [
      'tests failed: 1 failed (tests/test_calc.py::test_mean[case-1])',
      "E   TypeError: calc.mean() got an unexpected keyword argument 'weights'",
    ];
    expect(nodeIdsIn(evidence)).toEqual(['tests/test_calc.py::test_mean[case-1]']);
    expect(pythonFilesIn(evidence)).toEqual(['tests/test_calc.py']);
    expect(failureSymbols(evidence)).toEqual(expect.arrayContaining(['mean', 'weights']));
    expect(failureSymbols(evidence)).not.toContain('TypeError');
    expect(importedModules('from calc.core import add\nimport os, json\n')).toEqual(['calc.core', 'os', 'json']);
    expect(moduleFiles('calc.core')).toEqual([
      'calc/core.py',
      'calc/core/__init__.py',
      'src/calc/core.py',
      'src/calc/core/__init__.py',
    ]);
  });
});
