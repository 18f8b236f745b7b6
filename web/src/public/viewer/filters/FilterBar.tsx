import { LockOutlined } from '@ant-design/icons';
import { Button, Flex, Input, InputNumber, Select, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { isActiveChoice, lockedFilterLabel, valueCounts, type RecordTest } from '@common/filterBar';
import { CATEGORY_VALUES_SHOWN, type DashboardFilter, type FilterChoice, type FilterChoices } from '@common/schemas/widgets/dashboardFilter';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { RANGE_PRESETS, rangeLabel, type TimeRange } from '@common/time/timeRanges';
import type { RecordFeed } from '../widgets/widgetContext';

const CUSTOM = 'custom';
const DAY_MS = 86_400_000;

export interface FilterBarProps {
  filters: DashboardFilter[];
  choices: FilterChoices;
  onChange(filter: DashboardFilter, choice: FilterChoice): void;
  onClear(): void;
  /** The records the category lists count (every record of the view, before the bar's filters). */
  records: RecordFeed;
  /** The test a category filter's counts use: the bar's other filters as chosen. */
  countsTest(filterId: string): RecordTest | null;
  /** A share link's locked filters: fixed chips, not removable. */
  locked: WidgetFilter[];
  label(field: string): string;
}

/**
 * The dashboard's filter bar above its tabs: the admin's filters for a viewer to set, and a share
 * link's locked ones as fixed chips. Its own chunk (selects and number boxes weigh ~25 KB): a
 * dashboard without filters never downloads it (see LazyFilterBar).
 */
export default function FilterBar({ filters, choices, onChange, onClear, records, countsTest, locked, label }: FilterBarProps) {
  if (filters.length === 0 && locked.length === 0) return null;
  const active = filters.some((f) => isActiveChoice(choices[f.id]) && JSON.stringify(choices[f.id]) !== JSON.stringify({ kind: 'date', range: { kind: 'all' } }));
  return (
    <Flex gap={12} wrap align="end" style={{ marginBottom: 16 }} data-testid="filter-bar" role="group" aria-label="Dashboard filters">
      {locked.map((f, i) => (
        <Tooltip key={`locked-${i}`} title="Set by the share link: this view shows only these records">
          <Tag icon={<LockOutlined />} color="blue" data-testid="locked-filter" style={{ padding: '4px 8px', marginInlineEnd: 0 }}>
            {lockedFilterLabel(f, label)}
          </Tag>
        </Tooltip>
      ))}
      {filters.map((f) => (
        // Date and number boxes start over when the choice changes elsewhere (Clear, the URL).
        <Flex key={f.kind === 'category' ? f.id : `${f.id}:${JSON.stringify(choices[f.id])}`} vertical gap={4} data-testid={`filter-${f.id}`}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{f.label || label(f.field)}</Typography.Text>
          {f.kind === 'category' && <CategoryFilter filter={f} choice={choices[f.id]} onChange={onChange} records={records} countsTest={countsTest} />}
          {f.kind === 'date' && <DateFilter filter={f} choice={choices[f.id]} onChange={onChange} />}
          {f.kind === 'number' && <NumberFilter filter={f} choice={choices[f.id]} onChange={onChange} />}
        </Flex>
      ))}
      {filters.length > 0 && (
        <Button onClick={onClear} disabled={!active} data-testid="filters-clear">
          Clear filters
        </Button>
      )}
    </Flex>
  );
}

type Props<K extends DashboardFilter['kind']> = {
  filter: Extract<DashboardFilter, { kind: K }>;
  choice: FilterChoice | undefined;
  onChange(filter: DashboardFilter, choice: FilterChoice): void;
};

/**
 * Values with their counts under the bar's other filters (a value they leave no record of is not
 * listed, unless picked), searchable; the most frequent CATEGORY_VALUES_SHOWN of those matching the search.
 */
function CategoryFilter({ filter, choice, onChange, records, countsTest }: Props<'category'> & Pick<FilterBarProps, 'records' | 'countsTest'>) {
  const values = choice?.kind === 'category' ? choice.values : [];
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  // Counted when the list opens (one pass over the records), not on every change.
  const test = useMemo(() => countsTest(filter.id), [countsTest, filter.id]);
  const counts = useMemo(() => (open ? valueCounts(records.get().records.values(), filter.field, Number.MAX_SAFE_INTEGER, test) : []), [open, records, filter.field, test]);
  const options = useMemo(() => {
    const q = search.trim().toLowerCase();
    const shown = (q ? counts.filter((c) => c.value.toLowerCase().includes(q)) : counts).slice(0, CATEGORY_VALUES_SHOWN);
    const listed = new Set(shown.map((c) => c.value));
    const picked = values.filter((v) => !listed.has(v)).map((value) => ({ value, count: counts.find((c) => c.value === value)?.count ?? 0 }));
    return [...shown, ...picked].map((c) => ({ value: c.value, label: <span data-value={c.value}>{c.value} <Typography.Text type="secondary">({c.count.toLocaleString()})</Typography.Text></span>, title: c.value }));
  }, [counts, search, values]);
  return (
    <Select
      mode="multiple"
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
      value={values}
      options={options}
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setSearch('');
      }}
      onChange={(next: string[]) => onChange(filter, { kind: 'category', values: next })}
      placeholder="All"
      maxTagCount="responsive"
      notFoundContent={counts.length ? 'No matching values' : 'No values'}
      style={{ minWidth: 200, maxWidth: 320 }}
      aria-label={`Filter ${filter.label || filter.field}`}
      data-testid={`filter-select-${filter.id}`}
      labelRender={({ value }) => String(value)}
    />
  );
}

const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** A preset range (common/time/timeRanges.ts) or a custom one, from a day to a day (both included, UTC). */
function DateFilter({ filter, choice, onChange }: Props<'date'>) {
  const range: TimeRange = choice?.kind === 'date' ? choice.range : filter.range;
  const presetIndex = RANGE_PRESETS.findIndex((p) => JSON.stringify(p.range) === JSON.stringify(range));
  const [custom, setCustom] = useState(range.kind === 'fixed');
  const fixed = range.kind === 'fixed' ? { from: isoDay(Date.parse(range.from)), to: isoDay(Date.parse(range.to) - 1) } : null;
  const [from, setFrom] = useState(fixed?.from ?? '');
  const [to, setTo] = useState(fixed?.to ?? '');
  const applyCustom = (f: string, t: string) => {
    if (!f || !t || f > t) return;
    onChange(filter, { kind: 'date', range: { kind: 'fixed', from: `${f}T00:00:00.000Z`, to: new Date(Date.parse(`${t}T00:00:00.000Z`) + DAY_MS).toISOString() } });
  };
  return (
    <Flex gap={6} wrap>
      <Select
        value={custom || presetIndex === -1 ? CUSTOM : String(presetIndex)}
        options={[...RANGE_PRESETS.map((p, i) => ({ value: String(i), label: p.label })), { value: CUSTOM, label: range.kind === 'fixed' ? rangeLabel(range) : 'Custom range…' }]}
        onChange={(v: string) => {
          if (v === CUSTOM) return setCustom(true);
          setCustom(false);
          onChange(filter, { kind: 'date', range: RANGE_PRESETS[Number(v)].range });
        }}
        style={{ minWidth: 170 }}
        virtual={false}
        aria-label={`Filter ${filter.label || filter.field}: range`}
        data-testid={`filter-range-${filter.id}`}
      />
      {custom && (
        <>
          <Input type="date" value={from} aria-label="From day" style={{ width: 150 }} onChange={(e) => { setFrom(e.target.value); applyCustom(e.target.value, to); }} />
          <Input type="date" value={to} aria-label="To day" style={{ width: 150 }} onChange={(e) => { setTo(e.target.value); applyCustom(from, e.target.value); }} />
        </>
      )}
    </Flex>
  );
}

/** A minimum and a maximum (either may stay empty), applied on Enter or when leaving the box. */
function NumberFilter({ filter, choice, onChange }: Props<'number'>) {
  const current = choice?.kind === 'number' ? choice : { kind: 'number' as const, min: null, max: null };
  const [min, setMin] = useState<number | null>(current.min);
  const [max, setMax] = useState<number | null>(current.max);
  const apply = () => {
    if (min === current.min && max === current.max) return;
    onChange(filter, { kind: 'number', min, max });
  };
  return (
    <Flex gap={6}>
      <InputNumber value={min} onChange={(v) => setMin(v === null ? null : Number(v))} onBlur={apply} onPressEnter={apply} placeholder="Min" aria-label={`Filter ${filter.label || filter.field}: minimum`} style={{ width: 110 }} />
      <InputNumber value={max} onChange={(v) => setMax(v === null ? null : Number(v))} onBlur={apply} onPressEnter={apply} placeholder="Max" aria-label={`Filter ${filter.label || filter.field}: maximum`} style={{ width: 110 }} />
    </Flex>
  );
}
