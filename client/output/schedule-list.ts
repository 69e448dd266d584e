// `taskloop schedule --list` as a terminal table.
import type { ProjectScheduleRow } from '../projects/schedules.js';
import { formatTable } from './table.js';

function formatEvery(ms: number | null): string {
  if (ms === null) return '';
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  const unit = units.find(([, size]) => ms % size === 0) ?? ['ms', 1];
  return `${ms / unit[1]}${unit[0]}`;
}

const short = (iso: string | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '');

export function formatScheduleList(rows: ProjectScheduleRow[]): string {
  if (rows.length === 0) return 'no taskloop schedules; create one with: taskloop schedule FILE --every 1h';
  const table = rows.map((row) => [
    row.scheduleId,
    row.project,
    formatEvery(row.everyMs),
    row.paused ? 'paused' : 'active',
    short(row.nextRuns[0]),
    row.recentRuns.at(-1)?.workflowId ?? '',
  ]);
  return formatTable(['schedule', 'project', 'every', 'state', 'next run', 'last run'], table);
}
