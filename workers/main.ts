// `taskloop worker`: one worker host that serves until SIGINT/SIGTERM, when in-flight activities get the
// shutdown grace period (the SDK installs those signal handlers and drains the workers).
import { launchWorker, type LaunchOptions } from './launch.js';

export async function startWorker(options: LaunchOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const worker = await launchWorker({ ...options, log });
  log('  stop with Ctrl-C (SIGINT) or SIGTERM: in-flight activities get the shutdown grace period');
  await worker.running;
  log(`taskloop worker ${worker.host.hostId} stopped`);
}
