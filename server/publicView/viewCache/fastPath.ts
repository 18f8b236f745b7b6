import type http from 'node:http';
import type { AppContext } from '../../core';
import { staticSecurityHeaders } from '../../core';
import { viewCacheOf } from './registry';
import { metricsOf, routeIs } from '../../core';
import { matchesEtag, SHARE_VIEW_HEADERS } from './send';
import type { Encoding, ServedView } from './servedView';

/**
 * Another locked view answered on the hot path (signed embedding's, from server/sharing): a path
 * whose one parameter names a view held in memory, with its route template and its own headers.
 * `peek` answers synchronously, and only what it may answer (anything else goes to the Koa app).
 */
export interface FastRoute {
  path: RegExp;
  route: string;
  peek(param: string): ServedView | null;
  headers: http.OutgoingHttpHeaders;
}

const VIEW_PATH = /^\/api\/dashboards\/([0-9a-f]{24})$/;
const SHARE_PATH = /^\/api\/share\/([A-Za-z0-9_-]{32})$/;
const MIN_COMPRESS_BYTES = 1024;

/** Which of br / gzip an Accept-Encoding header takes (q=0 refuses), br first. */
export function pickEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name.trim(), qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const take = (e: string) => (q.get(e) ?? q.get('*') ?? 0) > 0;
  return take('br') ? 'br' : take('gzip') ? 'gzip' : null;
}

/**
 * The public view's hot path: `GET /api/dashboards/<id>` for a view the cache holds is answered
 * here, before the Koa stack, from memory (the same headers and bytes `sendPublicView` gives), and
 * so is `GET /api/share/<token>` for a held, live link whose view is held (as `sendShareView`).
 * so is each of `more` (signed embedding's view). Anything else — another path, a query string, an
 * unknown or unpublished id, an unknown, revoked or expired token, a cold view, the cache off while
 * Redis is lost — goes to `next` (the Koa app).
 */
export function publicViewFastPath(app: AppContext, next: http.RequestListener, more: FastRoute[] = []): http.RequestListener {
  const cache = viewCacheOf(app);
  const security = staticSecurityHeaders();
  const hits = metricsOf(app).viewCache.labels({ result: 'hit' });
  return (req, res) => {
    const read = req.method === 'GET' || req.method === 'HEAD';
    const m = read ? VIEW_PATH.exec(req.url ?? '') : null;
    const shared = read && !m ? SHARE_PATH.exec(req.url ?? '') : null;
    let view = m ? cache.peek(m[1]) : shared ? cache.peekShare(shared[1]) : null;
    let other: FastRoute | null = null;
    if (!view && read && !m && !shared) {
      for (const r of more) {
        const found = r.path.exec(req.url ?? '');
        if (!found) continue;
        view = r.peek(found[1]);
        other = r;
        break;
      }
    }
    if (!view) return next(req, res);
    hits.inc();
    routeIs(other ? other.route : m ? '/api/dashboards/:id' : '/api/share/:token', { kind: 'anonymous' });
    const headers: http.OutgoingHttpHeaders = {
      ...security,
      etag: view.etag,
      'cache-control': 'no-cache',
      vary: 'Accept-Encoding',
      ...(shared ? SHARE_VIEW_HEADERS : {}),
      ...other?.headers,
    };
    if (matchesEtag(req.headers['if-none-match'], view.etag)) {
      res.writeHead(304, headers).end();
      return;
    }
    const encoding = view.length >= MIN_COMPRESS_BYTES ? pickEncoding(req.headers['accept-encoding']) : null;
    const ready = encoding ? view.compressedNow(encoding) : view;
    if (!ready) return next(req, res);
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = ready.length;
    if (encoding) headers['content-encoding'] = encoding;
    res.writeHead(200, headers);
    if (req.method !== 'HEAD') for (const piece of ready.pieces) res.write(piece);
    res.end();
  };
}
