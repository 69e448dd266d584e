// A real, tiny Python wheel built offline (a zip with its dist-info), so a repository's set-up can install a third-party
// package without a package index: `uv pip install ./vendor/<wheel>`.
import { execa } from 'execa';
import path from 'node:path';

const script = `
import sys, zipfile
out, name, version, module = sys.argv[1:5]
files = {
    f"{module}/__init__.py": sys.argv[5],
    f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n",
    f"{name}-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: taskloop-tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = f"{name}-{version}.dist-info/RECORD"
with zipfile.ZipFile(out, "w") as wheel:
    for path, text in files.items():
        wheel.writestr(path, text)
    wheel.writestr(record, "".join(f"{path},,\\n" for path in [*files, record]))
`;

/** Writes `<name>-<version>-py3-none-any.whl` into `dir` holding `module/__init__.py`; returns the file's name. */
export async function buildWheel(
  dir: string,
  wheel: { name: string; version: string; module: string; source: string },
): Promise<string> {
  const file = `${wheel.name}-${wheel.version}-py3-none-any.whl`;
  await execa('python3', ['-c', script, path.join(dir, file), wheel.name, wheel.version, wheel.module, wheel.source]);
  return file;
}
