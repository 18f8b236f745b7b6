import { z } from 'zod';

/** The file formats a data source exports to. */
export const EXPORT_FORMATS = ['csv', 'json', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Splits `a,b\,c` into ["a", "b,c"]: field names may hold commas, escaped with a backslash. */
export function splitFieldList(list: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '\\' && i + 1 < list.length) cur += list[++i];
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.filter((f) => f.length > 0);
}

/** The inverse of `splitFieldList`. */
export const joinFieldList = (fields: string[]) => fields.map((f) => f.replace(/[\\,]/g, (c) => `\\${c}`)).join(',');

const instant = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an ISO 8601 date-time such as 2024-05-01T00:00:00Z` }).optional();

/** Query of GET /api/admin/data-sources/:id/export. */
export const ExportQuery = z
  .object({
    format: z.enum(EXPORT_FORMATS, { error: 'format must be csv, json or ndjson' }).default('csv'),
    fields: z.string().max(20_000).optional().describe('Comma-separated field names (a comma inside a name as \\,); default every field'),
    from: instant('from').describe('Records whose time is at or after this instant'),
    to: instant('to').describe('Records whose time is at or before this instant'),
    field: z.string().min(1, 'field must name a field').max(500).optional().describe("The time range's field; default the source's time field, else the time a record was last written"),
  })
  .strict()
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { message: 'from must not be after to', path: ['from'] });
export type ExportQuery = z.infer<typeof ExportQuery>;
