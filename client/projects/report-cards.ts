// Report cards kept on disk, one file per project run, so the next run's card can trend against this one.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { buildReportCard, type ReportCard } from '../../domain/learning/report-card.js';
import type { RunTask } from '../../domain/learning/finished-task.js';
import { stateDir } from '../../platform/paths.js';

export interface StoredCard {
  project: string;
  runId: string;
  /** When the card was first stored (ISO); orders runs for "the previous run". */
  storedAt: string;
  card: ReportCard;
}

/** Names that are safe as one path segment (run ids and project names are already close to this). */
const segment = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_');

export function reportCardDir(project: string, dir = stateDir()): string {
  return path.join(dir, 'reports', segment(project));
}

/** Every stored card of a project; unreadable files are skipped (a half-written one never exists: writes rename). */
export async function readStoredCards(project: string, dir = stateDir()): Promise<StoredCard[]> {
  const folder = reportCardDir(project, dir);
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  const cards: StoredCard[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const stored = JSON.parse(await fs.readFile(path.join(folder, name), 'utf8')) as StoredCard;
      if (stored.runId && stored.storedAt && stored.card) cards.push(stored);
    } catch {
      // A foreign or broken file must not stop the report.
    }
  }
  return cards;
}

/**
 * The card of this run, trending against the latest card of another run stored before it, stored once per
 * run id (a second call keeps the first file, so its order and its previous run stay the same).
 */
export async function showReportCard(
  project: string,
  runId: string,
  runTasks: readonly RunTask[],
  now: Date,
  dir = stateDir(),
): Promise<StoredCard> {
  const cards = await readStoredCards(project, dir);
  const own = cards.find((c) => c.runId === runId);
  const cutoff = own?.storedAt ?? now.toISOString();
  const previous = cards
    .filter((c) => c.runId !== runId && c.storedAt <= cutoff)
    .sort((a, b) => (a.storedAt < b.storedAt ? -1 : a.storedAt > b.storedAt ? 1 : 0))
    .at(-1);
  const stored: StoredCard = { project, runId, storedAt: cutoff, card: buildReportCard(runTasks, previous?.card) };
  if (!own)
    await writeAtomically(
      path.join(reportCardDir(project, dir), `${segment(runId)}.json`),
      `${JSON.stringify(stored, null, 2)}\n`,
    );
  return stored;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(temp, text);
  await fs.rename(temp, file);
}
