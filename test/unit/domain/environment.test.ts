import { describe, expect, it } from 'vitest';
import { dependencyFilesOf, environmentSpecSchema, planAutoSetup } from '../../../domain/environment.js';
import { parseTaskSpec } from '../../../domain/task-spec.js';

describe('the environment field', () => {
  it('takes auto or set-up lines, and refuses an unknown key by name', () => {
    expect(environmentSpecSchema.parse('auto')).toBe('auto');
    expect(
      environmentSpecSchema.parse({ setup: ['uv pip install -r requirements.txt'], python: 'python3.11' }),
    ).toEqual({
      setup: ['uv pip install -r requirements.txt'],
      python: 'python3.11',
    });
    const parsed = parseTaskSpec({
      id: 't',
      repo: '/tmp/r',
      goal: 'g',
      models: { coder: 'scripted:x.json' },
      environment: { setpu: ['x'] },
    });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.error).toMatch(/environment/);
  });

  it('takes a python name or an absolute path for python, never a relative path or another program', () => {
    const errorOf = (environment: unknown) => {
      const parsed = parseTaskSpec({
        id: 't',
        repo: '/tmp/r',
        goal: 'g',
        models: { coder: 'scripted:x.json' },
        environment,
      });
      return parsed.success ? 'accepted' : parsed.error;
    };
    for (const python of ['python', 'python3', 'python3.12', '/usr/bin/python3'])
      expect(errorOf({ python })).toBe('accepted');
    for (const python of ['.taskloop/work/environments/x/env/bin/python', 'sh', 'python3; id', 'bash'])
      expect(errorOf({ python })).toBe(
        'environment.python: name a python on the worker’s PATH (python3, python3.12) or the absolute path of one of ' +
          `its interpreters, got ${JSON.stringify(python)}`,
      );
  });
});

describe('the dependency files of a repository', () => {
  it('are the root project files and requirements files, nothing else', () => {
    expect(
      dependencyFilesOf([
        'README.md',
        'pyproject.toml',
        'setup.py',
        'setup.cfg',
        'requirements.txt',
        'requirements-dev.txt',
        'requirements/test.txt',
        'constraints.txt',
        'src/pkg/requirements.txt',
        'docs/requirements.txt',
      ]),
    ).toEqual([
      'constraints.txt',
      'pyproject.toml',
      'requirements-dev.txt',
      'requirements.txt',
      'requirements/test.txt',
      'setup.cfg',
      'setup.py',
    ]);
  });
});

describe('what auto installs', () => {
  it('installs the requirements files and pytest for a plain repository', () => {
    expect(planAutoSetup({ 'requirements.txt': 'attrs\n', 'requirements/test.txt': 'hypothesis\n' })).toEqual([
      "uv pip install -r 'requirements.txt'",
      "uv pip install -r 'requirements/test.txt'",
      'uv pip install pytest',
    ]);
  });

  it("installs the project with its test extra and its tests dependency group (attrs' layout)", () => {
    const pyproject = [
      '[project]',
      'name = "demo"',
      '[project.optional-dependencies]',
      'docs = ["sphinx"]',
      'tests = ["hypothesis", "pytest"]',
      '[dependency-groups]',
      'tests = ["pympler"]',
      'dev = ["ruff"]',
      '[tool.hatch.version]',
      'tests = "not a group"',
    ].join('\n');
    expect(planAutoSetup({ 'pyproject.toml': pyproject })).toEqual([
      "uv pip install '.[tests]'",
      "uv pip install --group 'tests'",
      'uv pip install pytest',
    ]);
  });

  it("reads setup.cfg's extras_require, and quotes names for the shell", () => {
    expect(
      planAutoSetup({ 'setup.cfg': '[options.extras_require]\ntesting =\n    pytest\n', "requirements-it's.txt": '' }),
    ).toEqual([
      "uv pip install -r 'requirements-it'\\''s.txt'",
      "uv pip install '.[testing]'",
      'uv pip install pytest',
    ]);
  });
});
