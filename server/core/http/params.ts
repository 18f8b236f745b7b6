import type { Middleware } from 'koa';
import type { z } from 'zod';
import { NotFoundError } from '../errors';
import type { RouteContext } from './validate';

/**
 * Canonicalises a route's path parameters with the schemas of `common/ids.ts`, right after its
 * guard: the handler, and every cache, room and counter behind it, sees one spelling per id. A
 * parameter that cannot be such an id names nothing: 404 (`what` names the thing, e.g. "Dashboard"),
 * as the services answer an id that names nothing.
 */
export function canonicalParams(shape: Record<string, z.ZodType<string, string>>, what: string): Middleware {
  return async (koaCtx, next) => {
    const ctx = koaCtx as RouteContext;
    for (const [name, schema] of Object.entries(shape)) {
      const parsed = schema.safeParse(ctx.params[name]);
      if (!parsed.success) throw NotFoundError(`${what} ${ctx.params[name]}`);
      ctx.params[name] = parsed.data;
    }
    await next();
  };
}
