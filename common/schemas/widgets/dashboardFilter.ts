import { z } from 'zod';
import { pathProblem } from '../../paths';
import { ALL_TIME, TimeRange } from '../../time/timeRanges';
import { FilterOperator, MAX_FILTER_VALUES, WidgetFilter } from './widget';

/**
 * The dashboard's filter bar: up to five filters an admin places on a dashboard, each on one field
 * (a path), that viewers set (their choice lives in the page's URL). Category: pick values from a
 * list with counts; date range: a range of common/time/timeRanges.ts on a date-time field; number range:
 * a minimum and/or a maximum.
 */
export const MAX_DASHBOARD_FILTERS = 5;
export const DASHBOARD_FILTER_KINDS = ['category', 'date', 'number'] as const;
export type DashboardFilterKind = (typeof DASHBOARD_FILTER_KINDS)[number];
/** The most values a category filter lists (the most frequent first). */
export const CATEGORY_VALUES_SHOWN = 100;

/** A field path, its problem named with the field it is for ("Filter field has an empty name…"). */
export const filterFieldPath = (what: string) =>
  z
    .string({ error: `Pick ${what}` })
    .trim()
    .min(1, `Pick ${what}`)
    .superRefine((path, ctx) => {
      const problem = pathProblem(path);
      if (problem) ctx.addIssue({ code: 'custom', message: `The field "${path.slice(0, 60)}" ${problem}` });
    });

const filterId = z
  .string({ error: 'A filter needs an id' })
  .regex(/^[A-Za-z0-9_-]{1,40}$/, 'A filter id is 1 to 40 letters, digits, _ or - (it is part of the page address)');
const label = z.string().trim().max(100, 'A filter label is at most 100 characters').optional();
const field = filterFieldPath('a field for the filter');

export const DashboardFilter = z.discriminatedUnion(
  'kind',
  [
    z.object({ id: filterId, kind: z.literal('category'), field, label }),
    /** `range`: what the filter shows until a viewer picks another range. */
    z.object({ id: filterId, kind: z.literal('date'), field, label, range: TimeRange.default(ALL_TIME) }),
    z.object({ id: filterId, kind: z.literal('number'), field, label }),
  ],
  { error: `A filter is one of ${DASHBOARD_FILTER_KINDS.join(', ')}` },
);
export type DashboardFilter = z.infer<typeof DashboardFilter>;

export const DashboardFilters = z
  .array(DashboardFilter)
  .max(MAX_DASHBOARD_FILTERS, `A dashboard has at most ${MAX_DASHBOARD_FILTERS} filters`)
  .refine((fs) => new Set(fs.map((f) => f.id)).size === fs.length, 'Filter ids must be unique');

/** What a viewer chose in one filter (none: the filter does not narrow). */
export type FilterChoice =
  | { kind: 'category'; values: string[] }
  | { kind: 'date'; range: TimeRange }
  | { kind: 'number'; min: number | null; max: number | null };

/** The viewer's choices by filter id (the page's URL holds them). */
export type FilterChoices = Record<string, FilterChoice>;

/** At most this many filters a share link locks. */
export const MAX_LOCKED_FILTERS = 10;

/**
 * The filters a share link locks: widget filters (common/schemas/widgets/widget.ts), all applied, each on a
 * valid field path. Whether the field and value fit the dashboard's source is checked on creation.
 */
export const LockedFilter = WidgetFilter.superRefine((f, ctx) => {
  const problem = pathProblem(f.field);
  if (problem) ctx.addIssue({ code: 'custom', path: ['field'], message: `The field "${f.field.slice(0, 60)}" ${problem}` });
});
export const LockedFilters = z.array(LockedFilter).max(MAX_LOCKED_FILTERS, `A share link locks at most ${MAX_LOCKED_FILTERS} filters`);
export type LockedFilter = z.infer<typeof LockedFilter>;

export { FilterOperator, MAX_FILTER_VALUES };
