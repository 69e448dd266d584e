// Writes a long list of pytest node ids short: where every test under a class, a file or a parametrised function is
// in the list, the parent's id stands for them (pytest and verdictOf read a parent id as all the tests under it).

/** The id's parents, nearest last: `f.py`, `f.py::C`, `f.py::C::t` for `f.py::C::t[1]`. */
function parentsOf(id: string): string[] {
  const parents: string[] = [];
  const bracket = id.indexOf('[');
  const base = bracket === -1 ? id : id.slice(0, bracket);
  const parts = base.split('::');
  for (let i = 1; i <= parts.length; i++) parents.push(parts.slice(0, i).join('::'));
  return bracket === -1 ? parents.slice(0, -1) : parents;
}

/** `chosen` (a subset of `all`, both leaf ids) with each maximal wholly-chosen parent in place of its leaves. */
export function compactNodeIds(chosen: readonly string[], all: readonly string[]): string[] {
  const picked = new Set(chosen);
  const complete = new Map<string, boolean>();
  for (const id of all)
    for (const parent of parentsOf(id)) complete.set(parent, (complete.get(parent) ?? true) && picked.has(id));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const id of chosen) {
    const top = parentsOf(id).find((parent) => complete.get(parent) === true) ?? id;
    if (!seen.has(top)) {
      seen.add(top);
      out.push(top);
    }
  }
  return out;
}
