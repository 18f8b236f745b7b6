import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { agingOf, compileChoices, otherChoices } from '@common/filterBar';
import type { DashboardFilter, FilterChoice } from '@common/schemas/widgets/dashboardFilter';
import type { FieldTyping } from '@common/types/fieldTyping';
import { useViewerStore } from '../viewerStore';
import type { RecordFeed } from '../widgets/widgetContext';
import { FilteredFeed } from './filteredFeed';
import { paramOf, readChoices, writeChoice } from './filterUrl';

const NO_FILTERS: DashboardFilter[] = [];
/** Calendar ranges ("Today", "This week") are resolved again this often, so they turn over at their boundary. */
const CALENDAR_CHECK_MS = 60_000;

/**
 * The dashboard's filter bar in the viewer: its filters (from the dashboard), the viewer's choices
 * (from the page's URL, so a filtered view is a link; a change replaces the history entry) and the
 * filtered feed every widget, table and bucket board reads (`base` stays for widgets that opt out);
 * `countsTest` narrows a category filter's value counts by the other filters.
 */
export function useFilterBar(base: RecordFeed, typing: FieldTyping) {
  const filtersKey = useViewerStore((s) => JSON.stringify(s.head?.dashboard.configuration.filters ?? NO_FILTERS));
  const filters = useMemo(() => JSON.parse(filtersKey) as DashboardFilter[], [filtersKey]);
  const [search, setSearch] = useSearchParams();
  const ours = filters.map((f) => search.getAll(paramOf(f.id)).join('\u0000')).join('\u0001');
  // Only the filters' own parameters (`ours`) matter, not ?tv or ?embed.
  const choices = useMemo(() => readChoices(filters, search), [filters, ours]);
  // Relative ranges ("Last 15 minutes") need no clock here: the test reads the clock and the feed
  // lets each record go as it ages out (agingOf). Calendar ones are compiled again once a minute.
  const calendar = filters.some((f) => {
    const c = choices[f.id] ?? (f.kind === 'date' ? { kind: 'date' as const, range: f.range } : undefined);
    return c?.kind === 'date' && c.range.kind === 'calendar';
  });
  const [turn, setTurn] = useState(0);
  useEffect(() => {
    if (!calendar) return;
    const timer = window.setInterval(() => setTurn((n) => n + 1), CALENDAR_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [calendar]);
  // `turn` compiles calendar ranges again at the current time.
  const test = useMemo(() => compileChoices(filters, choices, typing), [filters, choices, typing, turn]);
  const aging = useMemo(() => agingOf(filters, choices, typing), [filters, choices, typing]);
  const feed = useMemo(() => new FilteredFeed(base), [base]);
  // Before paint: the widgets read the new test's records from their first render on.
  useLayoutEffect(() => feed.setTest(test, aging), [feed, test, aging]);

  // A category list counts what the view would show with that value picked: the other filters as chosen.
  const countsTest = useCallback((filterId: string) => otherChoices(filters, choices, filterId, typing), [filters, choices, typing]);

  const onChange = useCallback((filter: DashboardFilter, choice: FilterChoice) => setSearch((s) => writeChoice(s, filter, choice), { replace: true }), [setSearch]);
  const onClear = useCallback(() => setSearch((s) => {
    const next = new URLSearchParams(s);
    for (const f of filters) next.delete(paramOf(f.id));
    for (const f of filters) if (f.kind === 'date' && f.range.kind !== 'all') next.set(paramOf(f.id), 'all');
    return next;
  }, { replace: true }), [setSearch, filters]);
  return { feed, filters, choices, countsTest, onChange, onClear };
}
