import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { ErrorCode } from '@common/schemas/errors';
import { ApiError, ValidationError } from '../errors';

/** Parses input with a zod schema; a failure becomes a 400 naming each field and its problem. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = result.error.issues.map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.code === 'unrecognized_keys' ? `Unknown field${i.keys.length > 1 ? 's' : ''}: ${i.keys.join(', ')}` : i.message,
  }));
  const message = fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ');
  throw ValidationError(message, fields);
}

/** A query string where a parameter given twice (`?tab=a&tab=b`) is refused instead of guessed at. */
export function singleValuedQuery(query: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      throw new ApiError(400, ErrorCode.repeatedParameter, `Query parameter "${key}" is given ${value.length} times; send it once`, [
        { path: key, message: 'given more than once' },
      ]);
    }
    out[key] = value;
  }
  return out;
}

/** A route's context: Koa's, plus the path parameters @koa/router decoded. */
export type RouteContext = Context & { params: Record<string, string> };

/** What a route validates; the validate middleware carries it so the OpenAPI document reads it (routes/openapi.ts). */
export type Schemas = { body?: z.ZodType; query?: z.ZodType };

/** The validate middleware, with the schemas it checks. */
export type Validator = Middleware & { readonly schemas: Schemas };
type Parsed<S extends Schemas> = {
  body: S['body'] extends z.ZodType ? z.infer<S['body']> : undefined;
  query: S['query'] extends z.ZodType ? z.infer<S['query']> : undefined;
};

/**
 * The last link of a route's chain: validates the body and/or query with their zod schemas
 * (from `common/schemas/`) and hands the parsed values to the handler.
 */
export function validate<S extends Schemas>(schemas: S, handler: (ctx: RouteContext, input: Parsed<S>) => Promise<void> | void): Validator {
  const middleware: Middleware = async (koaCtx) => {
    const ctx = koaCtx as RouteContext;
    const input = {
      body: schemas.body ? parse(schemas.body, ctx.request.body ?? {}) : undefined,
      query: schemas.query ? parse(schemas.query, singleValuedQuery(ctx.query)) : undefined,
    } as Parsed<S>;
    await handler(ctx, input);
  };
  return Object.assign(middleware, { schemas: schemas as Schemas });
}
