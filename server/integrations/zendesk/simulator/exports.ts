import { publicItem, type SimData } from './data';

/** Cursor-based and time-based incremental exports, shaped as Zendesk documents them. */

const encodeCursor = (seq: number) => Buffer.from(`seq:${seq}`).toString('base64url');
function decodeCursor(cursor: string): number | null {
  const m = /^seq:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}

export class ExportError extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) {
    super(String(body.description ?? body.error));
  }
}

interface Stamped {
  seq: number;
  ts: number;
}

/** One page of a cursor-based export (`?start_time=` or `?cursor=`). */
export function cursorExport<T extends Stamped>(
  items: Iterable<T>, query: URLSearchParams, perPage: number, baseUrl: string, path: string, key: string,
): Record<string, unknown> {
  const cursor = query.get('cursor');
  const start = query.get('start_time');
  const size = Math.min(1000, Math.max(1, Number(query.get('per_page')) || perPage));
  let after: number;
  let filter: (i: T) => boolean;
  if (cursor) {
    const seq = decodeCursor(cursor);
    if (seq === null) throw new ExportError(400, { error: 'InvalidPaginationParameter', description: 'cursor is invalid' });
    after = seq;
    filter = (i) => i.seq > seq;
  } else if (start !== null && /^\d+$/.test(start)) {
    const t = Number(start);
    after = 0;
    filter = (i) => i.ts >= t;
  } else {
    throw new ExportError(400, { error: 'InvalidValue', description: 'start_time or cursor is required' });
  }
  const matching = [...items].filter(filter).sort((a, b) => a.seq - b.seq);
  const page = matching.slice(0, size);
  const lastSeq = page.length ? page[page.length - 1].seq : after;
  const endOfStream = matching.length <= size;
  const afterCursor = encodeCursor(lastSeq);
  return {
    [key]: page.map(publicItem),
    after_url: `${baseUrl}${path}?cursor=${afterCursor}`,
    after_cursor: afterCursor,
    before_url: null,
    before_cursor: null,
    end_of_stream: endOfStream,
  };
}

/** One page of a time-based export (organizations): `next_page` and `end_time`. */
export function timeExport<T extends Stamped>(
  items: Iterable<T>, query: URLSearchParams, perPage: number, baseUrl: string, path: string, key: string,
): Record<string, unknown> {
  const start = query.get('start_time');
  if (start === null || !/^\d+$/.test(start)) throw new ExportError(400, { error: 'InvalidValue', description: 'start_time is required' });
  const t = Number(start);
  const matching = [...items].filter((i) => i.ts >= t).sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  const page = matching.slice(0, perPage);
  const endOfStream = matching.length <= perPage;
  const endTime = page.length ? page[page.length - 1].ts : t;
  return {
    [key]: page.map(publicItem),
    count: page.length,
    end_time: endTime,
    next_page: `${baseUrl}${path}?start_time=${endTime}`,
    end_of_stream: endOfStream,
  };
}

export type { SimData };
