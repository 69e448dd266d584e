import { describe, expect, it } from 'vitest';
import { mergeVerdict, mergeVerdictReply, parseVerdict } from '../../../domain/verdict.js';

describe('parseVerdict', () => {
  it('reads a bare or fenced JSON verdict with findings', () => {
    expect(parseVerdict('{"verdict":"pass"}')).toEqual({ success: true, data: { verdict: 'pass', findings: [] } });
    const fenced =
      'Here it is:\n```json\n{"verdict":"fail","findings":[{"file":"calc.py","line":2,"reason":"subtracts"}]}\n```';
    expect(parseVerdict(fenced)).toEqual({
      success: true,
      data: { verdict: 'fail', findings: [{ file: 'calc.py', line: 2, reason: 'subtracts' }] },
    });
  });

  it('says what is wrong with a malformed or invalid verdict', () => {
    expect(parseVerdict('looks good to me')).toEqual({ success: false, error: 'the reply holds no JSON object' });
    expect(parseVerdict('{"verdict": "pass",}')).toMatchObject({
      success: false,
      error: expect.stringContaining('malformed JSON'),
    });
    expect(parseVerdict('{"verdict": "maybe"}')).toMatchObject({
      success: false,
      error: expect.stringContaining('verdict'),
    });
  });
});

describe('mergeVerdict', () => {
  const policy = { passed: true, findings: [] };

  it('passes only when the policy and the model both pass', () => {
    expect(mergeVerdict(policy, { verdict: 'pass', findings: [{ reason: 'nit' }] }, 'model_review')).toEqual({
      passed: true,
      findings: [],
    });
    expect(
      mergeVerdict(
        { passed: false, findings: [{ rule: 'empty_diff', message: 'no change' }] },
        { verdict: 'pass', findings: [] },
        'model_review',
      ).passed,
    ).toBe(false);
  });

  it("adds a failing model's findings with file and reason, and one finding even when it gave none", () => {
    expect(
      mergeVerdict(
        policy,
        { verdict: 'fail', findings: [{ file: 'calc.py', reason: 'wrong operator' }] },
        'model_review',
      ),
    ).toEqual({
      passed: false,
      findings: [{ rule: 'model_review', message: 'wrong operator', file: 'calc.py' }],
    });
    expect(mergeVerdict(policy, { verdict: 'fail', findings: [] }, 'model_judge').findings).toHaveLength(1);
  });

  it('turns no valid verdict into a failing model_verdict_invalid finding, never a pass', () => {
    expect(mergeVerdictReply(policy, { ok: false, problem: 'no JSON' }, 'model_judge')).toEqual({
      passed: false,
      findings: [{ rule: 'model_verdict_invalid', message: 'no JSON' }],
    });
    expect(
      mergeVerdictReply(policy, { ok: true, verdict: { verdict: 'pass', findings: [] } }, 'model_judge').passed,
    ).toBe(true);
  });
});
