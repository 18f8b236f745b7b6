import type { ApiConfig, ApiPagination } from '@common/schemas/integrations/api';
import { readPath } from '@common/paths';
import { UpstreamProblem, type Cursor, type Page, type PullContext } from '../provider';
import { where } from './auth';
import { laterOf, nextLink, notOlder } from './values';
import { ApiRequester, type Answer } from './request';

/**
 * An API read page by page. The cursor it leaves after each page:
 * - `since`: the largest value of `incremental.field` among the stored pages (sent as
 *   `incremental.param` by the next sync);
 * - `run`: while a run is under way, where its next page is (a URL, a cursor, a page number or an
 *   offset) and the `since` its requests used — a failed or stopped run is resumed there, without
 *   reading its stored pages again. The run's last page clears it.
 */

interface Position {
  url?: string;
  cursor?: string;
  page?: number;
  offset?: number;
}

interface ApiCursor {
  since?: unknown;
  run?: { since?: unknown; at: Position; page: number };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const kindOf = (v: unknown) => (v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'an array' : `${typeof v === 'object' ? 'an object' : `a ${typeof v}`}`);

/** The object without its undefined fields (a stored cursor holds no nulls it did not mean). */
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The stored cursor, or none when it is not one of ours (a config changed under it). */
function readCursor(cursor: Cursor): ApiCursor {
  if (!isObject(cursor)) return {};
  const run = isObject(cursor.run) && isObject(cursor.run.at) && typeof cursor.run.page === 'number' ? (cursor.run as ApiCursor['run']) : undefined;
  return { since: cursor.since, run };
}

const firstPosition = (p: ApiPagination | undefined): Position =>
  p?.type === 'page' ? { page: p.start ?? 1 } : p?.type === 'offset' ? { offset: 0 } : {};

/** The address of the page at `at`: the next URL itself, or the config's URL with the paging and incremental parameters. */
function addressOf(config: ApiConfig, at: Position, since: unknown): string {
  if (at.url) return at.url;
  const u = new URL(config.url);
  const p = config.pagination;
  if (config.incremental?.param && since !== undefined && since !== null) u.searchParams.set(config.incremental.param, String(since));
  if (p?.type === 'cursor' && at.cursor !== undefined) u.searchParams.set(p.param, at.cursor);
  if (p?.type === 'page') u.searchParams.set(p.param, String(at.page));
  if (p?.type === 'offset') {
    u.searchParams.set(p.param, String(at.offset));
    u.searchParams.set(p.limitParam, String(p.limit));
  }
  return u.toString();
}

/** The records of an answer, or why there are none (a problem for the person, not a failure of the run). */
function recordsOf(json: unknown, recordsPath: string | undefined, at: string): { records: unknown[] } | { problem: string } {
  if (!recordsPath) {
    if (Array.isArray(json)) return { records: json };
    const keys = isObject(json) ? Object.keys(json).slice(0, 8) : [];
    return { problem: `the answer from ${at} is ${kindOf(json)}, not an array of records: set recordsPath to where they are${keys.length ? ` (its keys: ${keys.join(', ')})` : ''}` };
  }
  const v = isObject(json) ? readPath(json, recordsPath) : undefined;
  if (Array.isArray(v)) return { records: v };
  return { problem: `recordsPath ${recordsPath} is not an array in the answer from ${at} (found ${kindOf(v)})` };
}

/** Where the page after this one is, or null when the run ends here. */
function nextPosition(config: ApiConfig, at: Position, answer: Answer, count: number): Position | null {
  const p = config.pagination;
  if (!p) return null;
  const sameOrigin = (raw: string) => {
    let next: URL;
    try {
      next = new URL(raw, answer.url);
    } catch {
      throw new UpstreamProblem(`the next page's address in the answer from ${where(answer.url)} is not a URL`);
    }
    const origin = new URL(config.url).origin;
    // Credentials go to the configured origin only.
    if (next.origin !== origin) throw new UpstreamProblem(`the next page is on another host (${next.host}): refused, this integration only calls ${origin}`);
    return next.toString() === answer.url ? null : { url: next.toString() };
  };
  if (p.type === 'next-url') {
    const v = isObject(answer.json) ? readPath(answer.json, p.path) : undefined;
    return typeof v === 'string' && v !== '' && count > 0 ? sameOrigin(v) : null;
  }
  if (p.type === 'link-header') {
    const link = nextLink(answer.headers.link);
    return link && count > 0 ? sameOrigin(link) : null;
  }
  if (p.type === 'cursor') {
    const v = isObject(answer.json) ? readPath(answer.json, p.path) : undefined;
    if ((typeof v !== 'string' && typeof v !== 'number') || v === '' || count === 0) return null;
    return String(v) === at.cursor ? null : { cursor: String(v) };
  }
  if (count === 0) return null;
  if (p.type === 'page') return { page: (at.page ?? p.start ?? 1) + 1 };
  return { offset: (at.offset ?? 0) + count };
}

/** The pages of an API after `cursor` (see above); a test reads the first one and stops. */
export async function* apiPages(config: ApiConfig, cursor: Cursor, ctx: PullContext): AsyncGenerator<Page> {
  const stored = readCursor(cursor);
  const requester = new ApiRequester(config, ctx);
  const runSince = stored.run ? stored.run.since : stored.since;
  let since = stored.since;
  let at = stored.run?.at ?? firstPosition(config.pagination);
  for (let n = stored.run?.page ?? 1; ; n++) {
    const url = addressOf(config, at, runSince);
    const answer = await requester.get(url);
    const found = recordsOf(answer.json, config.recordsPath, where(url));
    if ('problem' in found && ctx.purpose === 'test') throw new UpstreamProblem(found.problem);
    let records = 'records' in found ? found.records : [];
    const count = records.length;
    const inc = config.incremental;
    if (inc) {
      for (const r of records) if (isObject(r)) since = laterOf(since, readPath(r, inc.field));
      // Without a parameter the API sends everything: only what is not older than the last sync's newest lands.
      if (!inc.param && runSince !== undefined && runSince !== null) records = records.filter((r) => !isObject(r) || notOlder(readPath(r, inc.field), runSince));
    }
    const next = nextPosition(config, at, answer, count);
    yield {
      records,
      label: `page ${n}`,
      rejected: 'problem' in found ? [{ index: -1, reason: found.problem }] : undefined,
      cursor: next ? { ...defined({ since }), run: { ...defined({ since: runSince }), at: next, page: n + 1 } } : defined({ since }),
      last: next === null,
    };
    if (!next) return;
    at = next;
  }
}
