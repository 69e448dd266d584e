import { describe, expect, it } from 'vitest';
import { runTaskloop } from '../../support/cli.js';

const env = (extra: Record<string, string> = {}) => {
  const { TEMPORAL_UI_URL: _ui, ...rest } = process.env;
  return { ...rest, TEMPORAL_ADDRESS: '127.0.0.1:7233', TEMPORAL_NAMESPACE: 'default', ...extra };
};

describe('taskloop ui', () => {
  it("prints the list page of the local UI with the filter's query and names the four columns", async () => {
    const result = await runTaskloop(['ui', '--status', 'paused', '--project', 'calc'], { env: env() });
    expect(result.exitCode, result.all).toBe(0);
    const [url, hint] = result.stdout.split('\n');
    const parsed = new URL(url ?? '');
    expect(parsed.origin + parsed.pathname).toBe('http://localhost:8233/namespaces/default/workflows');
    expect(parsed.searchParams.get('query')).toBe(
      "WorkflowType IN ('taskWorkflow', 'projectWorkflow') AND TaskStatus = 'PAUSED' AND Project = 'calc'",
    );
    expect(hint).toContain('add TaskStatus, Phase, Attempt, FailureClass');
  });

  it('uses TEMPORAL_UI_URL, and refuses a remote server without it (exit 2 naming the variable)', async () => {
    const cloud = await runTaskloop(['ui', '--json', '--type', 'task'], {
      env: env({ TEMPORAL_ADDRESS: 'ns.a1.tmprl.cloud:7233', TEMPORAL_UI_URL: 'https://cloud.temporal.io/' }),
    });
    expect(cloud.exitCode, cloud.all).toBe(0);
    const printed = JSON.parse(cloud.stdout) as { url: string; query: string; columns: string[] };
    expect(printed.query).toBe("WorkflowType = 'taskWorkflow'");
    expect(printed.columns).toEqual(['TaskStatus', 'Phase', 'Attempt', 'FailureClass']);
    const url = new URL(printed.url);
    expect(url.origin + url.pathname).toBe('https://cloud.temporal.io/namespaces/default/workflows');
    expect(url.searchParams.get('query')).toBe(printed.query);
    const remote = await runTaskloop(['ui'], { env: env({ TEMPORAL_ADDRESS: 'ns.a1.tmprl.cloud:7233' }) });
    expect(remote.exitCode).toBe(2);
    expect(remote.stderr).toContain('set TEMPORAL_UI_URL');
  });

  it('refuses a bad filter naming the flag and the choices', async () => {
    const result = await runTaskloop(['ui', '--status', 'sleeping'], { env: env() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--status must be one of RUNNING');
  });
});
