import type { Middleware } from 'koa';
import type { ActivityObjectType } from '@common/schemas/activity';

/** What a successful call of an admin route means in the activity log. */
export interface RouteActivity {
  kind: string;
  objectType: ActivityObjectType | null;
  verb: string;
  /** Where the object's id is: a path parameter, or the answer (`id` / `link.id`), or the request body. */
  idFrom: 'param:id' | 'param:linkId' | 'answer' | 'answer:link' | 'body:integrationId' | 'none';
}

/**
 * What a route does, said next to its guard: its words in the API docs, and what a successful call
 * means in the activity log (`'ingest'`: summarised per source and minute, with the caller's
 * address). Audience, path, parameters and body schema come from the guard and the validator.
 */
export interface RouteAbout {
  summary: string;
  /** The answer of a success, in words. */
  answer: string;
  /** The success status when it is not 200. */
  status?: number;
  /** The body in words, for routes whose body is not one zod schema (ingest reads several shapes). */
  body?: string;
  /** Left out: the call is not logged (reads, and changes whose domain event logs them). */
  activity?: RouteActivity | 'ingest';
}

/** What the request's route said about itself, once routing reached it (the activity log reads it after the answer). */
export interface RouteAboutState {
  routeAbout?: RouteAbout;
}

/** Declares a route's docs and activity meaning; placed right after its guard. */
export function about(meta: RouteAbout): Middleware & { readonly about: RouteAbout } {
  const mw: Middleware = async (ctx, next) => {
    (ctx.state as RouteAboutState).routeAbout = meta;
    await next();
  };
  return Object.assign(mw, { about: meta });
}

/** A route's meaning in the activity log, in a line. */
export const activity = (kind: string, objectType: ActivityObjectType | null, verb: string, idFrom: RouteActivity['idFrom']): RouteActivity => ({ kind, objectType, verb, idFrom });
