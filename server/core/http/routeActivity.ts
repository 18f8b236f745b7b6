import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, Middleware } from 'koa';
import type { DomainEventBus } from '../events';
import type { IngestState, Principal } from '../principal';
import type { RouteAboutState } from './routeAbout';

/** Who acts in the request being handled: its address, and the principal once a guard let it in. */
export interface Acting {
  address: string | null;
  principal?: Principal;
}

const acting = new AsyncLocalStorage<Acting>();

/** The request's actor and address, for what is announced while it is handled (undefined in timers, socket events, startup). */
export const actingNow = (): Acting | undefined => acting.getStore();

/** Names the principal acting in the current request (the guards, once they let it in): what it causes is said in its name. */
export function actingAs(principal: Principal): void {
  const store = acting.getStore();
  if (store) store.principal = principal;
}

/**
 * Mounted before the API: holds who acts in each request, and once a route whose `about` names an
 * activity has answered, announces it (`route.answered`) on the app's event bus — a success, or for
 * ingest any answer but a refused credential or a rate limit (the guard announces those itself).
 */
export function announceRouteActivity(events: DomainEventBus): Middleware {
  return async (ctx: Context & { params?: Record<string, string> }, next) => {
    const store: Acting = { address: ctx.ip || null };
    let error: unknown = null;
    try {
      await acting.run(store, next);
    } catch (e) {
      error = e;
    }
    const meaning = (ctx.state as RouteAboutState).routeAbout?.activity;
    if (meaning && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      const status = error ? ((error as { status?: number }).status ?? 500) : ctx.status;
      const answered = meaning === 'ingest' ? status !== 401 && status !== 429 : !error && status < 400;
      if (answered) {
        acting.run(store, () =>
          events.emit('route.answered', {
            activity: meaning,
            method: ctx.method,
            status,
            params: ctx.params ?? {},
            requestBody: ctx.request.body,
            answer: ctx.body,
            address: store.address,
            principal: store.principal ?? null,
            ingestCredential: (ctx.state as Partial<IngestState>).ingestCredential ?? null,
          }),
        );
      }
    }
    if (error) throw error;
  };
}
