import { lazy, Suspense } from 'react';
import type { FilterBarProps } from './FilterBar';

// The bar is drawn with antd (selects, pickers): its chunk and the viewer's antd theme load together.
const FilterBar = lazy(() => Promise.all([import('./FilterBar'), import('../lazy/ViewerAntd')]).then(([bar, t]) => ({ default: t.withViewerAntd(bar.default) })));

/** The filter bar, fetched only when the dashboard has filters or the share link locks some. */
export function LazyFilterBar(props: FilterBarProps) {
  if (props.filters.length === 0 && props.locked.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <FilterBar {...props} />
    </Suspense>
  );
}
