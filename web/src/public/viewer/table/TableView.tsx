import { SearchOutlined } from '@ant-design/icons';
import { getCoreRowModel, useReactTable, type ColumnDef, type ColumnSort, type SortingState } from '@tanstack/react-table';
import { Button, Card, Empty, Flex, Input, Typography } from 'antd';
import { startTransition, useContext, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { TabConfiguration } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/records/record';
import { ranker, sortOrderFor } from '@common/enumOrder';
import { fieldValue } from '../../cells';
import { EmptyText } from '../EmptyText';
import { sortValue } from '@common/types/fieldTyping';
import { isEmptyValue } from '@common/cells';
import { compareValues, LAST_UPDATED, searchText, tableColumns, typedColumns, warmSearchText, type ColumnSpec } from './tableModel';
import { registerTableView, ViewerTabContext } from '../viewerExport';
import { VirtualTable } from './VirtualTable';
import { orderedRecords } from '../recordStore';
import { defaultTimeOrder, newestFirst } from './timeOrder';
import { useViewerStore } from '../viewerStore';
import { useFeedVersion, useWidgetEnv } from '../widgets/widgetContext';

const LAST_UPDATED_WIDTH = 190;
const NO_ROWS: RecordDto[] = [];

const cellValue = (r: RecordDto, field: string) => (field === LAST_UPDATED ? r.lastUpdated : fieldValue(r, field));

/**
 * Records in the order of one column (stable: ties keep server order). Known enums and a column's
 * own order rank by meaning (ranked values first, ascending = the order's first value on top); a
 * date-time field's dates in time order whatever their written form, a number field's number texts
 * by value (common/types); empty values last in both directions.
 */
function sortRecords(records: RecordDto[], sort: ColumnSort | undefined, specs: ColumnSpec[]): RecordDto[] {
  if (!sort) return records;
  const spec = specs.find((s) => s.field === sort.id);
  const rank = ranker(spec && sort.id !== LAST_UPDATED ? sortOrderFor(spec.field, spec.sortOrder) : null);
  const keyed = records.map((r, i) => {
    const raw = cellValue(r, sort.id);
    const v = spec?.type ? sortValue(raw, spec.type, spec.dateOrder) : raw;
    return { r, i, v, e: isEmptyValue(raw), k: rank ? rank(raw) : -1 };
  });
  const dir = sort.desc ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.e !== b.e) return a.e ? 1 : -1;
    if (a.k !== b.k) return (a.k === -1 ? 1 : b.k === -1 ? -1 : (a.k - b.k) * dir);
    return compareValues(a.v, b.v) * dir || a.i - b.i;
  });
  return keyed.map((k) => k.r);
}

/**
 * The table view: configured or all columns, filter, sorting, virtualised rows, over
 * the records of the page's feed (the viewer's store, or the widget builder's preview).
 */
export function TableView({ configuration, height }: { configuration: TabConfiguration; height?: number | string }) {
  // TV mode: nobody types or clicks on a wall screen, so no filter box and no toggle; the rows page by themselves.
  const { feed, tv, typing } = useWidgetEnv();
  const filterable = configuration.filterable !== false && !tv;
  const sortable = configuration.sortable !== false;
  // Rows pick up their own record at once; re-deriving order, filter and sort for 100k records can wait.
  const version = useDeferredValue(useFeedVersion());
  // `version` stands for the feed's records.
  const records = useMemo(() => orderedRecords(feed.get()), [feed, version]);
  const [showAll, setShowAll] = useState(false);
  const [query, setQuery] = useState('');
  const [sorting, setSorting] = useState<SortingState>([]);

  // Filtering and sorting 100k records must not block typing: they run on deferred values.
  const deferredRecords = useDeferredValue(records);
  const q = useDeferredValue(filterable ? query.trim().toLowerCase() : '');
  const filtered = useMemo(() => (q ? deferredRecords.filter((r) => searchText(r).includes(q)) : deferredRecords), [deferredRecords, q]);

  const model = useMemo(() => tableColumns(configuration, records, showAll), [configuration, records, showAll]);
  // A pushed record rarely changes the columns: keep the same array so rows stay memoised.
  const columns = useStable(model.columns);
  const { total, canToggle } = model;
  useEffect(() => (filterable ? warmSearchText(records) : undefined), [records, filterable]);
  const specs: ColumnSpec[] = useMemo(() => [...typedColumns(columns, typing), { field: LAST_UPDATED, width: LAST_UPDATED_WIDTH, extra: false }], [columns, typing]);
  const defs = useMemo<ColumnDef<RecordDto>[]>(
    () => specs.map((c) => ({ id: c.field, accessorFn: (r: RecordDto) => cellValue(r, c.field), enableSorting: sortable })),
    [specs, sortable],
  );

  // react-table keeps the column model and sort state; the row pipeline over up to 100k records is
  // ours (filter, then one decorated sort), so no per-record row objects are built.
  const table = useReactTable({
    data: NO_ROWS,
    columns: defs,
    state: { sorting },
    onSortingChange: (updater) => startTransition(() => setSorting(updater)),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualFiltering: true,
    enableSortingRemoval: false,
    sortDescFirst: false,
    enableMultiSort: false,
  });
  // No column sorted: a source with a time field (or append-only) shows its newest records first.
  const timeOrder = useViewerStore((s) => defaultTimeOrder(s.head?.dataSource));
  const rows = useMemo(
    () => (sorting[0] || timeOrder === null ? sortRecords(filtered, sorting[0], specs) : newestFirst(filtered, timeOrder)),
    [filtered, sorting, specs, timeOrder],
  );

  // Export CSV of this tab writes what this table shows.
  const tabId = useContext(ViewerTabContext);
  const snapshot = useRef({ specs, rows });
  snapshot.current = { specs, rows };
  useEffect(() => (tabId ? registerTableView(tabId, () => snapshot.current) : undefined), [tabId]);

  if (columns.length === 0) {
    return <Card><Empty description={<EmptyText title="No Columns Configured" text="Configure columns to display in table view." />} /></Card>;
  }

  const pending = q !== (filterable ? query.trim().toLowerCase() : '');
  return (
    <Flex vertical gap={12}>
      <Flex gap={12} align="center" wrap>
        {filterable && (
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Filter records..."
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            style={{ flex: '1 1 220px', maxWidth: 360 }}
            aria-label="Filter records"
          />
        )}
        <Typography.Text type="secondary" data-testid="field-count">
          Showing {columns.length} of {total} fields
        </Typography.Text>
        {canToggle && !tv && <Button onClick={() => setShowAll((v) => !v)}>{showAll ? 'Show Configured' : 'Show All Fields'}</Button>}
        <Typography.Text type="secondary" style={{ marginLeft: 'auto', opacity: pending ? 0.5 : 1 }} data-testid="row-count">
          {rowCountText(rows.length, records.length)}
        </Typography.Text>
      </Flex>
      <VirtualTable table={table} specs={specs} rows={rows} height={height} />
      {rows.length === 0 && (
        <Empty
          description={<EmptyText title="No Records Found" text={q ? 'Try adjusting your filter criteria.' : 'No data available for this view.'} />}
        />
      )}
    </Flex>
  );
}

/** "150 records", or with a filter "Showing 27 of 150 records". */
export function rowCountText(shown: number, total: number): string {
  const all = `${total.toLocaleString()} ${total === 1 ? 'record' : 'records'}`;
  return shown === total ? all : `Showing ${shown.toLocaleString()} of ${all}`;
}

/** The previous value while its JSON is unchanged. */
function useStable<T>(value: T): T {
  const ref = useRef<{ key: string; value: T } | null>(null);
  const key = JSON.stringify(value);
  if (!ref.current || ref.current.key !== key) ref.current = { key, value };
  return ref.current.value;
}
