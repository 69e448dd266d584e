// The calc project with a wrong `mean` (floor division): failures of it recur with the pattern wrong_constant.
import { calcFiles, turn, type ScriptTurn } from '../../support/calc-project.js';

export const meanFiles = {
  ...calcFiles,
  'calc.py': `${calcFiles['calc.py']}\n\ndef mean(values):\n    return sum(values) // len(values)\n`,
  'tests/test_mean.py': 'from calc import mean\n\n\ndef test_mean():\n    assert mean([1, 2]) == 1.5\n',
};

/** Coder turns that leave mean wrong: the attempt fails its tests. */
export const wrongMean = (): ScriptTurn[] => [
  turn('replace_in_file', {
    path: 'calc.py',
    old: 'return sum(values) // len(values)',
    new: 'return sum(values) // max(len(values), 1)',
  }),
  turn('finish', { summary: 'guarded the division' }),
];
