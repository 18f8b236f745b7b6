import { ErrorCode } from '@common/schemas/errors';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { ApiError } from '../errors';
import { AppHandle, type AppContext } from '../context';
import type { DataSourceDoc } from '.';

/**
 * The write path's look-ups of a data source, cached per process so a burst of single-record
 * requests costs no database read per request: by an ingest key's hash (the guard's credential
 * check) and by the sourceId or id a source's URL names (the admin token; the activity log's
 * ingest entry names its sources the same way). Only found sources are
 * kept (an unknown key or name is read every time), each for `SOURCE_CACHE_MS`; this process's own
 * changes drop an entry at once (a new name, key or keying; the source removed).
 *
 * What a cached source vouches for is its identity only. Everything that writes reads the source
 * again — the group-commit flush (sourceWriter), record management (managedSource) — and checks
 * there that the ingest key is still the source's, so a key rotated in another process writes
 * nothing even while an entry here still names it.
 */
export const SOURCE_CACHE_MS = 5_000;
const MAX_ENTRIES = 1_000;

interface Entry {
  ds: DataSourceDoc;
  until: number;
}
type Kind = 'key' | 'ref';

/** Whether a cached source still says what a change announced about it (what its readers use). */
const same = (ds: DataSourceDoc, dto: DataSourceDto) =>
  ds.name === dto.name && (ds.ingestKeyHint ?? null) === (dto.ingestKeyHint ?? null) && (ds.primaryKey ?? null) === dto.primaryKey && Boolean(ds.appendOnly) === dto.appendOnly;

/** One cache per app, made on first use and kept true by the app's domain events from then on. */
const caches = new AppHandle<Map<string, Entry>>('the data source cache', ({ events }) => {
  const entries = new Map<string, Entry>();
  const drop = (id: string, keep: (ds: DataSourceDoc) => boolean = () => false) => {
    for (const [k, e] of entries) if (String(e.ds._id) === id && !keep(e.ds)) entries.delete(k);
  };
  events.on('datasource.changed', ({ dataSource: dto }) => drop(dto.id, (ds) => same(ds, dto)));
  events.on('datasource.removed', ({ dataSourceId }) => drop(dataSourceId));
  return entries;
});

/** The answer to an ingest key that a cached look-up let through but the source, read again, no longer has (rotated). */
export const keyRotatedError = () =>
  new ApiError(401, ErrorCode.invalidIngestCredential, "This ingest key is no longer the data source's (it was replaced): send the source's current ingest key or the admin token");

/** The source under `kind:name`, from the cache while fresh, else from `read` (kept when found). */
export async function cachedSource(app: AppContext, kind: Kind, name: string, read: () => Promise<DataSourceDoc | null>): Promise<DataSourceDoc | null> {
  const cache = caches.of(app);
  const key = `${kind}:${name}`;
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && hit.until > now) return hit.ds;
  if (hit) cache.delete(key);
  const ds = await read();
  if (ds) {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, { ds, until: now + SOURCE_CACHE_MS });
  }
  return ds;
}
