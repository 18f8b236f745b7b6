import { useState } from 'react';
import type { ActivityCategory, ActivityEntryDto } from '@common/schemas/activity';
import { api, errorText } from '../../api/client';
import { useLiveResource } from '../../realtime/useLiveResource';
import { useAdminSocket } from '../stores/useAdminRealtime';

export interface ActivityFilter {
  category?: ActivityCategory;
  kind?: string;
  objectId?: string;
}

/** The query string of a filter (empty parts left out). */
export function activityQuery(filter: ActivityFilter, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filter, ...extra })) if (v) q.set(k, v);
  const text = q.toString();
  return text ? `?${text}` : '';
}

const matches = (e: ActivityEntryDto, f: ActivityFilter) =>
  (!f.category || e.category === f.category) && (!f.kind || e.kind === f.kind) && (!f.objectId || e.objectId === f.objectId);

/** Most entries kept on screen (the newest); the CSV export has them all. */
const SHOWN = 500;

/** The entries for a filter: loaded over REST, then new ones pushed to the admin room on top. */
export function useActivity(filter: ActivityFilter) {
  const [entries, setEntries] = useState<ActivityEntryDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const socket = useAdminSocket();
  const { category, kind, objectId } = filter;

  const reload = useLiveResource<ActivityEntryDto[]>(() => {
    setEntries(null);
    return {
      socket,
      load: (signal) => {
        setError(null);
        return api.get<ActivityEntryDto[]>(`/api/admin/activity${activityQuery({ category, kind, objectId }, { limit: String(SHOWN) })}`, { signal });
      },
      loaded: setEntries,
      failed: (e) => setError(errorText(e)),
      pushes: () => ({
        'admin:activity': ({ entry }) => {
          if (!matches(entry, { category, kind, objectId })) return;
          // A per-minute summary comes again with its counts grown: it replaces itself in place.
          setEntries((list) => (!list ? list : list.some((e) => e.id === entry.id) ? list.map((e) => (e.id === entry.id ? entry : e)) : [entry, ...list].slice(0, SHOWN)));
        },
      }),
    };
  }, [socket, category, kind, objectId]);

  return { entries, error, reload };
}
