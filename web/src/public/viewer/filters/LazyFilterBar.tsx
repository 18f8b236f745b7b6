import { lazy, Suspense } from 'react';
import type { FilterBarProps } from './FilterBar';

const FilterBar = lazy(() => import('./FilterBar'));

/** The filter bar, fetched only when the dashboard has filters or the share link locks some. */
export function LazyFilterBar(props: FilterBarProps) {
  if (props.filters.length === 0 && props.locked.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <FilterBar {...props} />
    </Suspense>
  );
}
