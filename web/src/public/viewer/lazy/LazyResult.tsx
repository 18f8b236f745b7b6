import type { ResultProps } from 'antd';
import { lazy, Suspense } from 'react';

const ResultView = lazy(() => import('./ResultView'));

/** A "not found" or "failed" page, its chunk fetched only when one is shown: a first visit that works never downloads it. */
export function LazyResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <ResultView {...props} />
    </Suspense>
  );
}
