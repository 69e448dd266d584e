// A pytest node id as an acceptance test names it: a test file's path relative to the repository (no `..`, not
// absolute, not an option), then `::Class` and `::test_name` parts as needed, and a parametrisation `[...]` at the end.
// Anything else never matches a test case, and the judge then blamed the change for a test it could not find.

const identifier = String.raw`[\p{L}_][\p{L}\p{N}_]*`;
const nodeIdPattern = new RegExp(String.raw`^(?:[^/\s:\\]+/)*[^/\s:\\]+\.py(?:::${identifier})*(?:\[.*\])?$`, 'u');

/** True for `tests/test_x.py`, `tests/test_x.py::TestX::test_y`, `test_x.py::test_y[1-2]`. */
export function isPytestNodeId(id: string): boolean {
  if (!nodeIdPattern.test(id) || id.startsWith('-')) return false;
  const file = id.split('::')[0] ?? '';
  // A parametrisation only follows a test's name.
  if (id.includes('[') && !id.slice(0, id.indexOf('[')).includes('::')) return false;
  return !file.split('/').some((segment) => segment === '..' || segment === '.');
}
