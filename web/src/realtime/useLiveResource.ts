import { useCallback, useEffect, useRef, type DependencyList } from 'react';
import { followLive, type LiveResource, type LiveResourceOptions } from './liveResource';

export { emitRoom, type LiveControl, type LiveResourceOptions, type LiveRoom } from './liveResource';

/**
 * Follows a live resource while the calling component shows it (liveResource.ts has the rules):
 * `make` builds the options when any of `deps` changes — the resource and the socket — and the
 * previous one is left (its late answers dropped). `make` returning null follows nothing. Gives a
 * refetch for a Retry button.
 */
export function useLiveResource<T>(make: () => LiveResourceOptions<T> | null, deps: DependencyList): () => void {
  const current = useRef<LiveResource | null>(null);
  useEffect(() => {
    const options = make();
    if (!options) return;
    const resource = followLive(options);
    current.current = resource;
    return () => {
      resource.dispose();
      if (current.current === resource) current.current = null;
    };
    // `deps` name the resource: `make` is a new closure on every render.
  }, deps);
  return useCallback(() => void current.current?.refetch(), []);
}
