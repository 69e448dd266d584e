// The unit tier runs its files without isolation (vitest.config.ts): a fork's files share one module registry. A
// file that replaces a module with vi.mock would then see the module as an earlier file loaded it, so such files are
// listed here and run in a project of their own, isolated (test/unit/lint/module-mocks-isolated.test.ts keeps the list
// complete).
export const unitFilesThatMockModules = ['test/unit/activities/review/python-syntax.test.ts'];
