import { Cron, CronPattern } from 'croner';
import { REPORT_MIN_MINUTES, type ReportSchedule } from '@common/schemas/report';
import { ValidationError } from '../core';

/*
 * When a report goes next. `{everyMinutes: n}` runs on the clock of the report's time zone (every
 * 5 minutes at :00, :05…; every 60 on the hour; every 1,440 at midnight); a cron expression is read
 * by croner in its time zone. Neither may run more often than every 5 minutes.
 */

const MINUTE = 60_000;
const two = (n: number) => String(n).padStart(2, '0');

/** The time zone a schedule is read in: a cron schedule's own, else the report's. */
export const scheduleZone = (s: ReportSchedule, timezone: string): string => ('cron' in s && s.timezone) || timezone;

function parseCron(expr: string, path: string): CronPattern {
  try {
    return new CronPattern(expr, undefined, { mode: '5-part' });
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^CronPattern: /, '') : String(e);
    throw ValidationError(`${path}: "${expr}" is not a five-field cron expression (minute hour day-of-month month day-of-week): ${why}`, [{ path, message: `Not a five-field cron expression: ${why}` }]);
  }
}

/**
 * The shortest time between two runs of a cron pattern, in minutes, with the two times: within an
 * hour from its minutes, and across two hours that both run (their last and first minutes).
 */
function shortestGap(p: CronPattern): { minutes: number; from: string; to: string } | null {
  const mins = p.minute.flatMap((on, i) => (on ? [i] : []));
  const hours = p.hour.flatMap((on, i) => (on ? [i] : []));
  if (!mins.length || !hours.length) return null;
  let best: { minutes: number; from: string; to: string } | null = null;
  const h0 = two(hours[0]);
  for (let i = 1; i < mins.length; i++) {
    const gap = mins[i] - mins[i - 1];
    if (!best || gap < best.minutes) best = { minutes: gap, from: `${h0}:${two(mins[i - 1])}`, to: `${h0}:${two(mins[i])}` };
  }
  // Two hours in a row that both run (23 and 0 may be two days in a row).
  const next = hours.find((h) => hours.includes((h + 1) % 24));
  if (next !== undefined) {
    const gap = 60 - mins[mins.length - 1] + mins[0];
    if (!best || gap < best.minutes) best = { minutes: gap, from: `${two(next)}:${two(mins[mins.length - 1])}`, to: `${two((next + 1) % 24)}:${two(mins[0])}` };
  }
  return best;
}

/** Refuses a schedule that is not one (400 naming the field) or runs more often than every 5 minutes (400 naming the minimum). */
export function checkSchedule(s: ReportSchedule, timezone: string): void {
  if ('everyMinutes' in s) return; // its floor is in the schema
  const pattern = parseCron(s.cron, 'schedule.cron');
  const gap = shortestGap(pattern);
  if (gap && gap.minutes < REPORT_MIN_MINUTES) {
    const message = `its runs come ${gap.minutes} minute${gap.minutes === 1 ? '' : 's'} apart (${gap.from} and ${gap.to}); reports go at most every ${REPORT_MIN_MINUTES} minutes`;
    throw ValidationError(`schedule.cron: "${s.cron}": ${message}`, [{ path: 'schedule.cron', message: `Runs ${gap.minutes} minute${gap.minutes === 1 ? '' : 's'} apart: at least ${REPORT_MIN_MINUTES} minutes between runs` }]);
  }
  if (!nextRunAfter(s, timezone, new Date())) {
    throw ValidationError(`schedule.cron: "${s.cron}" never runs (no such date)`, [{ path: 'schedule.cron', message: 'Never runs: no date matches it' }]);
  }
}

/** The UTC offset of a time zone at a moment, in ms (Berlin in summer: +2 h). */
function zoneOffset(timezone: string, at: Date): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(at)
      .map((p) => [p.type, Number(p.value)]),
  );
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The first slot of a schedule after `from` (a run missed long ago is made up once: the next slot counts from now). Null: never. */
export function nextRunAfter(s: ReportSchedule, timezone: string, from: Date): Date | null {
  const zone = scheduleZone(s, timezone);
  if ('everyMinutes' in s) {
    const step = s.everyMinutes * MINUTE;
    const offset = zoneOffset(zone, from);
    const local = from.getTime() + offset;
    return new Date((Math.floor(local / step) + 1) * step - offset);
  }
  const job = new Cron(s.cron, { timezone: zone, mode: '5-part', paused: true });
  try {
    return job.nextRun(from);
  } finally {
    job.stop();
  }
}
