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
        'environment.python: expected a python on the worker’s PATH (python3, python3.12) or the absolute path of one ' +
          `of its interpreters, got ${JSON.stringify(python)} (set environment.python to e.g. "python3.12", or leave ` +
          'it out for the worker’s python3)',
      );
  });

  it('answers a bad environment at input, naming the field, what is expected and the fix', () => {
    const errorOf = (fields: Record<string, unknown>) => {
      const parsed = parseTaskSpec({
        id: 't',
        repo: '/tmp/r',
        goal: 'g',
        models: { coder: 'scripted:x.json' },
        ...fields,
      });
      return parsed.success ? 'accepted' : parsed.error;
    };
    expect(errorOf({ environment: 5 })).toBe(
      'environment: expected "auto" or an object { setup, python, files, timeoutMs }, got 5 (set environment to ' +
        '"auto", or e.g. {"setup": ["uv pip install -r requirements.txt"]})',
    );
    expect(errorOf({ environment: { setup: 'x' } })).toMatch(
      /^environment\.setup: expected a non-empty array of shell lines, got "x" \(set environment\.setup to e\.g\./,
    );
    expect(errorOf({ environment: { setup: [5, null] } })).toBe(
      'environment.setup.0: expected a shell line (a non-empty string), got 5 (remove empty or non-string lines from ' +
        'environment.setup)\nenvironment.setup.1: expected a shell line (a non-empty string), got null (remove empty ' +
        'or non-string lines from environment.setup)',
    );
    for (const file of ['../../etc/passwd', '/etc/passwd', 'requirements/../../x.txt'])
      expect(errorOf({ environment: { files: [file] } })).toBe(
        `environment.files.0: expected a path inside the repository (relative, no ".." part), got ${JSON.stringify(file)} ` +
          '(write it like "requirements/dev.txt")',
      );
    expect(errorOf({ environment: 'auto', sandbox: 'none' })).toMatch(
      /^sandbox: a task with an environment runs in the bwrap sandbox .*drop sandbox none, or drop environment/,
    );
    expect(errorOf({ environment: 'auto', sandbox: 'bwrap' })).toBe('accepted');
    expect(errorOf({ environment: { files: ['requirements/dev.txt'] } })).toBe('accepted');
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
