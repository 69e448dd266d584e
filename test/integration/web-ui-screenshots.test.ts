// The Web UI screenshots the docs show, taken as scripts/web-ui-screenshots.ts takes them: a real dev server with
// its Web UI, a real worker and task, a real headless Chromium. Checks that what it saved is the page, not a blank.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { captureWebUi } from '../../scripts/web-ui/capture.js';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, which always comes first after the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(pngSignature), 'PNG signature').toBe(true);
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('Web UI screenshots', () => {
  it('shows the tasks with their taskloop status in the filtered list and the activity summaries on a task page and PAUSED on its own page for the paused task, in real PNGs', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-webui-shots-'));
    const capture = await captureWebUi({
      outDir,
      project: 'webui-test',
      // The test's own Temporal CLI, so nothing is installed twice.
      cliPath: inject('temporalCli'),
    });
    expect(capture.workflowId).toBe('task-webui-test-fix-add');
    const page = (name: string) => {
      const found = capture.pages.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`no page ${name} in ${capture.pages.map((p) => p.name).join(', ')}`);
      return found;
    };

    for (const shot of capture.pages) {
      const png = await readFile(shot.png);
      expect(pngSize(png), shot.name).toEqual({ width: shot.width, height: shot.height });
      // A blank or error page of this size compresses to a few KB; the rendered UI is tens of KB or more.
      expect(png.length, `${shot.name} bytes`).toBeGreaterThan(30_000);
      expect(png.length, `${shot.name} bytes`).toBeLessThan(5_000_000);
      const shown = shot.name.startsWith('web-ui-paused-') ? capture.pausedWorkflowId : capture.workflowId;
      expect(shot.text, shot.name).toContain(shown);
    }
    // The list is filtered by taskloop's search attributes and has its columns: the paused task is Running to
    // Temporal and PAUSED to taskloop, at its phase and attempt.
    const list = page('web-ui-task-list').text;
    expect(list).toMatch(/Project = "webui-test"/);
    expect(list).toContain('Status Workflow ID TaskStatus Phase Attempt FailureClass Type');
    expect(list).toContain(`${capture.pausedWorkflowId} Running ${capture.pausedWorkflowId} PAUSED claim 1`);
    expect(list).toContain(`${capture.workflowId} Completed ${capture.workflowId} COMPLETED done 1`);
    // The task's page names its activities by their summaries, not only by their types.
    expect(page('web-ui-task-history').text).toContain('worktree, attempt 1');
    expect(page('web-ui-task-history').text).toContain('coder, attempt 1');
    expect(page('web-ui-task-history').text).toContain('pytest, attempt 1');
    expect(page('web-ui-task-timeline').text).toContain('coder, attempt 1');
    // The paused task's own page: Temporal's header says RUNNING, the current details' first line (rendered from
    // `**PAUSED**: …`) says PAUSED and that attempt 1 has not started, as it was paused before its first node.
    const paused = page('web-ui-paused-task-metadata').text;
    expect(paused).toContain(`RUNNING ${capture.pausedWorkflowId}`);
    expect(paused).toContain('Current Details');
    expect(paused).toContain('PAUSED: attempt 1 not started yet');
  }, 300_000);
});
