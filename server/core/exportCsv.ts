import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import type { DashboardTab, TableColumn } from '@common/schemas/dashboard';
import { customFields, customFieldValue, fieldValue } from '@common/cells';
import { CSV_OPTIONS, csvCell, csvFileName, neutralise } from '@common/csv';
import { fieldLabel, type ValueFormat } from '@common/formats';
import type { AppContext } from './context';
import { decodeKeys } from './db/fieldNames';
import { NotFoundError } from './errors';
import { inSlices, SLICED_READ_BATCH } from './slices';
import type { DashboardDoc, DataSourceDoc, RecordDoc } from './models';
import { dashboardConfiguration, presentDataSource } from './models/presenters';
import { NO_TYPING, typedFormat, type FieldTyping } from '@common/types/fieldTyping';
import { compileLocked, type RecordTest } from '@common/filterBar';
import type { WidgetFilter } from '@common/schemas/widgets/widget';

type Json = Record<string, unknown>;
interface Column {
  header: string;
  value: (data: Json, record: RecordDoc) => unknown;
}

export { csvFileName, neutralise };

const cell = csvCell;

const fieldColumn = (name: string, label: string, format: ValueFormat): Column => ({ header: label, value: (d) => cell(name, fieldValue(d, name), format) });

/** Content-Disposition with an ASCII fallback and the exact UTF-8 name (RFC 6266 / 5987). */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_');
  const utf8 = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

async function allColumns(ctx: AppContext, ds: DataSourceDoc, labels: Record<string, string>, typing: FieldTyping, test: RecordTest | null): Promise<Column[]> {
  const keys = new Set<string>();
  const customIds = new Set<string>();
  const records = ctx.models.Record.find({ dataSourceId: ds._id }).sort({ _id: 1 }).lean<RecordDoc>().cursor({ batchSize: SLICED_READ_BATCH });
  for await (const r of inSlices(records)) {
    const data = decodeKeys((r.data ?? {}) as Json);
    if (test && !test(data)) continue;
    for (const k of r.keyOrder ?? []) if (k !== 'custom_fields') keys.add(k);
    for (const f of customFields(data)) customIds.add(String(f.id));
  }
  return [
    ...[...keys].map((k) => ({ header: fieldLabel(k, labels), value: (d: Json) => cell(k, d[k], typedFormat(typing, k)) })),
    ...[...customIds].map((id) => ({ header: fieldLabel(`custom_${id}`, labels), value: (d: Json) => cell(`custom_${id}`, customFieldValue(d, id)) })),
  ];
}

function configuredColumns(columns: TableColumn[], labels: Record<string, string>, typing: FieldTyping): Column[] {
  return [...columns]
    .filter((c) => c.visible !== false)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((c) => fieldColumn(c.name, fieldLabel(c.name, labels), typedFormat(typing, c.name, { format: c.format, currency: c.currency })));
}

/**
 * Streams a published dashboard's tab as RFC 4180 CSV (UTF-8 with BOM), record by record from a
 * cursor. `filters`: a share link's locked filters — only the records matching all of them go out.
 */
export async function exportDashboardCsv(ctx: AppContext, dashboard: DashboardDoc, ds: DataSourceDoc | null, tabId?: string, filters: WidgetFilter[] = []): Promise<{ fileName: string; stream: Readable }> {
  const config = dashboardConfiguration(dashboard);
  let tab: DashboardTab | undefined = config.tabs[0];
  if (tabId) {
    tab = config.tabs.find((t) => t.id === tabId);
    if (!tab) throw NotFoundError(`Tab ${tabId} of this dashboard`);
  }
  const labels = { ...decodeKeys((ds?.keyMappings ?? {}) as Record<string, string>), ...config.keyMappings };
  // A date-time field's dates are written as ISO 8601 whatever form they were sent in (common/types).
  const typing: FieldTyping = ds ? { fieldTypes: presentDataSource(ds).fieldTypes, dateOrder: ds.dateOrder === 'dmy' ? 'dmy' : 'mdy' } : NO_TYPING;
  const test = compileLocked(filters, typing);
  const configured = tab?.configuration?.columns?.length ? configuredColumns(tab.configuration.columns, labels, typing) : null;
  const columns = [...(configured ?? (ds ? await allColumns(ctx, ds, labels, typing, test) : [])), { header: 'Last Updated', value: (_d: Json, r: RecordDoc) => new Date(r.lastUpdated).toISOString() }];

  const csv = stringify({ ...CSV_OPTIONS });
  csv.write(columns.map((c) => neutralise(c.header)));
  // Read a batch at a time and written in slices: an export of a large source never holds the loop.
  const source = ds ? ctx.models.Record.find({ dataSourceId: ds._id }).sort({ _id: 1 }).lean<RecordDoc>().cursor({ batchSize: SLICED_READ_BATCH }) : null;
  (async () => {
    try {
      if (source) {
        for await (const r of inSlices(source)) {
          const data = decodeKeys((r.data ?? {}) as Json);
          if (test && !test(data)) continue;
          const ok = csv.write(columns.map((c) => c.value(data, r)));
          if (!ok) await new Promise((resolve) => csv.once('drain', resolve));
        }
      }
      csv.end();
    } catch (e) {
      ctx.log.error('CSV export failed mid-stream', e);
      csv.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  return { fileName: csvFileName(dashboard.name, tabId ? tab?.name : null), stream: csv };
}
