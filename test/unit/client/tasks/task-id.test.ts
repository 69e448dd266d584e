import { describe, expect, it } from 'vitest';
import { taskSpecFieldsSchema } from '../../../../domain/task-spec.js';
import { deriveTaskId } from '../../../../client/tasks/task-id.js';

describe('deriveTaskId', () => {
  it('is a slug of the goal plus 6 hex chars, the same for the same repo and goal', () => {
    const id = deriveTaskId('Fix #218: cache_key is ignored', '/repos/app');
    expect(id).toMatch(/^fix-218-cache-key-is-ignored-[0-9a-f]{6}$/);
    expect(deriveTaskId('Fix #218: cache_key is ignored', '/repos/app')).toBe(id);
  });

  it('differs when the repository or the goal differs', () => {
    const id = deriveTaskId('Fix add', '/repos/a');
    expect(deriveTaskId('Fix add', '/repos/b')).not.toBe(id);
    expect(deriveTaskId('Fix add!', '/repos/a')).not.toBe(id);
  });

  it('keeps whole words up to 40 characters of slug', () => {
    const id = deriveTaskId('Refactor the configuration loader so that environment variables override files', '/r');
    expect(id.slice(0, -7)).toBe('refactor-the-configuration-loader-so');
    expect(id.length - 7).toBeLessThanOrEqual(40);
  });

  it('cuts a single word longer than 40 characters, strips accents, and falls back to "task"', () => {
    expect(deriveTaskId('a'.repeat(60), '/r').slice(0, -7)).toBe('a'.repeat(40));
    expect(deriveTaskId('Café crème', '/r').slice(0, -7)).toBe('cafe-creme');
    expect(deriveTaskId('!!! ???', '/r')).toMatch(/^task-[0-9a-f]{6}$/);
  });

  it('always gives a valid task id', () => {
    for (const goal of ['', 'x', '日本語のゴール', 'a'.repeat(200), '--- leading dashes']) {
      expect(taskSpecFieldsSchema.shape.id.safeParse(deriveTaskId(goal, '/r')).success).toBe(true);
    }
  });

  it('with a payload key carries no word of the goal: an HMAC under the key, stable for the same key, repo and goal', () => {
    const key = Buffer.alloc(32, 1);
    const id = deriveTaskId('Fix login for acme-internal-billing', '/repos/app', key);
    expect(id).toMatch(/^task-[0-9a-f]{12}$/);
    expect(deriveTaskId('Fix login for acme-internal-billing', '/repos/app', key)).toBe(id);
    expect(deriveTaskId('Fix login for acme-internal-billing', '/repos/app', Buffer.alloc(32, 2))).not.toBe(id);
    expect(deriveTaskId('Fix login for acme-internal-billing', '/repos/b', key)).not.toBe(id);
    expect(taskSpecFieldsSchema.shape.id.safeParse(id).success).toBe(true);
  });
});
