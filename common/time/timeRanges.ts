import { z } from 'zod';

/**
 * Time ranges and time buckets: the one model widgets, the dashboard's filter bar and share links
 * use. A range resolves, at a moment `now`, to a half-open window [from, to) in epoch milliseconds
 * (null: unbounded). Calendar periods and buckets follow the viewer's local time; weeks start on
 * Monday.
 */

export const RELATIVE_RANGES = ['15m', '1h', '24h', '7d', '30d', '12mo'] as const;
export type RelativeRange = (typeof RELATIVE_RANGES)[number];
export const CALENDAR_PERIODS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number];
export const TIME_BUCKETS = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type TimeBucket = (typeof TIME_BUCKETS)[number];

const instant = (name: string) =>
  z
    .string({ error: `${name} must be a date and time` })
    .trim()
    .refine((s) => !Number.isNaN(Date.parse(s)), { message: `${name} must be a date and time (ISO 8601, e.g. 2024-03-01T00:00:00Z)` });

export const TimeRange = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('all') }),
    z.object({ kind: z.literal('relative'), last: z.enum(RELATIVE_RANGES, { error: `last must be one of ${RELATIVE_RANGES.join(', ')}` }) }),
    z.object({
      kind: z.literal('calendar'),
      period: z.enum(CALENDAR_PERIODS, { error: `period must be one of ${CALENDAR_PERIODS.join(', ')}` }),
      /** The period before the current one ("Yesterday", "Previous month"). */
      previous: z.boolean().default(false),
    }),
    z
      .object({ kind: z.literal('fixed'), from: instant('from'), to: instant('to') })
      .refine((r) => Date.parse(r.from) < Date.parse(r.to), { message: 'from must be before to', path: ['from'] }),
  ],
  { error: 'A time range is all time, relative, calendar or fixed' },
);
export type TimeRange = z.infer<typeof TimeRange>;
export const ALL_TIME: TimeRange = { kind: 'all' };

export interface TimeWindow {
  /** Inclusive start, epoch ms; null: since the beginning. */
  from: number | null;
  /** Exclusive end, epoch ms; null: no end. */
  to: number | null;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const RELATIVE_MS: Record<Exclude<RelativeRange, '12mo'>, number> = { '15m': 15 * MINUTE, '1h': HOUR, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };

/** The start (local time) of the bucket holding `t`. */
export function bucketStart(t: number, bucket: TimeBucket): number {
  if (bucket === 'minute') return Math.floor(t / MINUTE) * MINUTE;
  const d = new Date(t);
  if (bucket === 'hour') {
    d.setMinutes(0, 0, 0);
    return d.getTime();
  }
  d.setHours(0, 0, 0, 0);
  if (bucket === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  else if (bucket === 'month') d.setDate(1);
  else if (bucket === 'quarter') d.setMonth(d.getMonth() - (d.getMonth() % 3), 1);
  else if (bucket === 'year') d.setMonth(0, 1);
  return d.getTime();
}

/** The start of the bucket `steps` buckets after (negative: before) the one starting at `start`. */
export function shiftBucket(start: number, bucket: TimeBucket, steps: number): number {
  if (bucket === 'minute') return start + steps * MINUTE;
  const d = new Date(start);
  if (bucket === 'hour') d.setHours(d.getHours() + steps);
  else if (bucket === 'day') d.setDate(d.getDate() + steps);
  else if (bucket === 'week') d.setDate(d.getDate() + 7 * steps);
  else if (bucket === 'month') d.setMonth(d.getMonth() + steps);
  else if (bucket === 'quarter') d.setMonth(d.getMonth() + 3 * steps);
  else d.setFullYear(d.getFullYear() + steps);
  return d.getTime();
}

/** Where a relative range starts when it is `now` ("last 15 minutes": 15 minutes before). */
export const relativeStart = (last: RelativeRange, now: number): number => (last === '12mo' ? shiftBucket(now, 'month', -12) : now - RELATIVE_MS[last]);

/** The last instant a relative range still holds an instant `t` (it leaves the range just after). */
export const relativeEnd = (last: RelativeRange, t: number): number => (last === '12mo' ? shiftBucket(t, 'month', 12) : t + RELATIVE_MS[last]);

/** The window a range covers at `now`. Relative ranges end at `now`; calendar ones at the period's end. */
export function resolveRange(range: TimeRange, now: number): TimeWindow {
  switch (range.kind) {
    case 'all':
      return { from: null, to: null };
    case 'fixed':
      return { from: Date.parse(range.from), to: Date.parse(range.to) };
    case 'relative':
      return { from: relativeStart(range.last, now), to: now };
    case 'calendar': {
      const current = bucketStart(now, range.period);
      const from = range.previous ? shiftBucket(current, range.period, -1) : current;
      return { from, to: shiftBucket(from, range.period, 1) };
    }
  }
}

/** The window of the same length just before this one ("vs the previous 24 hours"); null when unbounded. */
export function previousWindow(range: TimeRange, now: number): TimeWindow | null {
  const w = resolveRange(range, now);
  if (w.from === null || w.to === null) return null;
  if (range.kind === 'calendar') {
    const from = shiftBucket(w.from, range.period, -1);
    return { from, to: w.from };
  }
  if (range.kind === 'relative' && range.last === '12mo') return { from: shiftBucket(w.from, 'month', -12), to: w.from };
  return { from: w.from - (w.to - w.from), to: w.from };
}

/** Whether an instant lies in a window. */
export const inWindow = (t: number, w: TimeWindow): boolean => (w.from === null || t >= w.from) && (w.to === null || t < w.to);

/** Whether a range moves by itself as time passes (everything but fixed and all time). */
export const isSliding = (range: TimeRange): boolean => range.kind === 'relative' || range.kind === 'calendar';

/** The most points a chart draws; an automatic bucket keeps under it, a chosen one is refused over it. */
export const MAX_CHART_POINTS = 500;
const AUTO_POINTS = 120;
const BUCKET_MS: Record<TimeBucket, number> = { minute: MINUTE, hour: HOUR, day: DAY, week: 7 * DAY, month: 30.44 * DAY, quarter: 91.31 * DAY, year: 365.25 * DAY };

/** How many buckets of this size a span holds (rounded up). */
export const bucketsIn = (spanMs: number, bucket: TimeBucket): number => Math.ceil(spanMs / BUCKET_MS[bucket]);

/** The smallest bucket that draws a span in at most about 120 points. */
export function autoBucket(spanMs: number): TimeBucket {
  return TIME_BUCKETS.find((b) => bucketsIn(spanMs, b) <= AUTO_POINTS) ?? 'year';
}

/** Whether labels over this window must carry the year (it crosses a new year). */
export const spansYears = (from: number, to: number): boolean => new Date(from).getFullYear() !== new Date(Math.max(from, to - 1)).getFullYear();

const RELATIVE_LABELS: Record<RelativeRange, string> = {
  '15m': 'Last 15 minutes',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '12mo': 'Last 12 months',
};
const CALENDAR_LABELS: Record<CalendarPeriod, [current: string, previous: string]> = {
  day: ['Today', 'Yesterday'],
  week: ['This week', 'Previous week'],
  month: ['This month', 'Previous month'],
  quarter: ['This quarter', 'Previous quarter'],
  year: ['This year', 'Previous year'],
};
const PREVIOUS_LABELS: Record<RelativeRange, string> = {
  '15m': 'the previous 15 minutes',
  '1h': 'the previous hour',
  '24h': 'the previous 24 hours',
  '7d': 'the previous 7 days',
  '30d': 'the previous 30 days',
  '12mo': 'the previous 12 months',
};

/** Every preset a range picker offers, with its label. */
export const RANGE_PRESETS: { label: string; range: TimeRange }[] = [
  { label: 'All time', range: ALL_TIME },
  ...RELATIVE_RANGES.map((last) => ({ label: RELATIVE_LABELS[last], range: { kind: 'relative', last } as TimeRange })),
  ...CALENDAR_PERIODS.flatMap((period) => [false, true].map((previous) => ({ label: CALENDAR_LABELS[period][previous ? 1 : 0], range: { kind: 'calendar', period, previous } as TimeRange }))),
];

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** A range as a person reads it: "Last 24 hours", "This month", "2024-01-01 – 2024-03-31", "All time". */
export function rangeLabel(range: TimeRange): string {
  switch (range.kind) {
    case 'all':
      return 'All time';
    case 'relative':
      return RELATIVE_LABELS[range.last];
    case 'calendar':
      return CALENDAR_LABELS[range.period][range.previous ? 1 : 0];
    case 'fixed':
      return `${day(Date.parse(range.from))} – ${day(Date.parse(range.to) - 1)}`;
  }
}

/** What a comparison is against: "the previous 24 hours", "the previous month", "the previous period". */
export function previousLabel(range: TimeRange): string {
  if (range.kind === 'relative') return PREVIOUS_LABELS[range.last];
  if (range.kind === 'calendar') return `the previous ${range.period}`;
  return 'the previous period';
}

/** A range's nominal length (a calendar period's usual length); null for all time. */
export function rangeSpanMs(range: TimeRange): number | null {
  switch (range.kind) {
    case 'all':
      return null;
    case 'fixed':
      return Date.parse(range.to) - Date.parse(range.from);
    case 'relative':
      return range.last === '12mo' ? 365 * DAY : RELATIVE_MS[range.last];
    case 'calendar':
      return BUCKET_MS[range.period];
  }
}

/** Bucket names as a person reads them after "by" or "per": "By month". */
export const BUCKET_LABELS: Record<TimeBucket, string> = { minute: 'Minute', hour: 'Hour', day: 'Day', week: 'Week', month: 'Month', quarter: 'Quarter', year: 'Year' };
