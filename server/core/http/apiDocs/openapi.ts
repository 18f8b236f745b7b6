import type Router from '@koa/router';
import { z } from 'zod';
import { SESSION_COOKIE, type Audience } from '../../principal';
import type { Schemas } from '../validate';
import type { RouteAbout } from '../routeAbout';

/** One registered API route, read from the router: its guard gives the audience, its validator the schemas. */
export interface ApiRoute {
  method: string;
  /** Koa style, `/api/admin/dashboards/:id`. */
  path: string;
  audience: Audience | null;
  schemas: Schemas;
  /** The route's words (its `about` next to the guard), when it says any. */
  about: RouteAbout | null;
}

/** Every route the API router holds (HEAD, which @koa/router adds to GET, left out). */
export function apiRoutes(api: Router): ApiRoute[] {
  const out: ApiRoute[] = [];
  for (const layer of api.stack) {
    const audience = (layer.stack[0] as { audience?: Audience }).audience ?? null;
    const validator = layer.stack.find((m) => 'schemas' in m) as { schemas?: Schemas } | undefined;
    const described = layer.stack.find((m) => 'about' in m) as { about?: RouteAbout } | undefined;
    for (const method of layer.methods.filter((m) => m !== 'HEAD')) out.push({ method, path: String(layer.path), audience, schemas: validator?.schemas ?? {}, about: described?.about ?? null });
  }
  return out;
}

type Json = Record<string, unknown>;

/** JSON Schema (2020-12, which OpenAPI 3.1 uses as is) of what a client sends: defaults are optional, coerced values their input type. */
const jsonSchema = (schema: z.ZodType): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
};

/** A signed-in role: the session cookie, a personal API token (with its owner's role) or the admin token. */
export const SIGNED_IN_SECURITY = [{ session: [] }, { personalToken: [] }, { adminToken: [] }];

/** Who may call: a signed-in role (x-audience names it); for ingest the admin token, an admin's personal token or a source's key (in the URL only on a source's own URL). */
function security(route: ApiRoute): Json[] {
  if (route.audience === 'viewer' || route.audience === 'editor' || route.audience === 'admin') return SIGNED_IN_SECURITY;
  if (route.audience !== 'ingest') return [];
  const inUrl = route.path.startsWith('/api/data/sources/:sourceId/') ? [{ ingestKey: [] }] : [];
  return [{ adminToken: [] }, { personalToken: [] }, { ingestKeyHeader: [] }, ...inUrl];
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function operation(route: ApiRoute): Json {
  const doc = route.about;
  const pathParams = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = route.schemas.query ? jsonSchema(route.schemas.query) : null;
  const required = new Set((query?.required as string[] | undefined) ?? []);
  const queryParams = Object.entries((query?.properties as Record<string, Json> | undefined) ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(typeof schema.description === 'string' && { description: schema.description }),
    schema,
  }));
  const responses: Json = { [String(doc?.status ?? 200)]: { description: doc?.answer ?? 'Success' } };
  if (route.schemas.body || route.schemas.query || doc?.body) responses['400'] = error('The request is not valid: the error names each field and its problem');
  if (route.audience !== 'public') responses['401'] = error('The credential is missing or wrong');
  if (route.audience === 'viewer' || route.audience === 'editor' || route.audience === 'admin') responses['403'] = error(`The caller's role is below ${route.audience}`);
  if (pathParams.length) responses['404'] = error('Nothing has this id');
  return {
    ...(doc && { summary: doc.summary }),
    operationId: `${route.method.toLowerCase()} ${route.path}`,
    'x-audience': route.audience,
    security: security(route),
    ...(pathParams.length + queryParams.length > 0 && { parameters: [...pathParams, ...queryParams] }),
    ...(route.schemas.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.schemas.body) } } } }
      : doc?.body && { requestBody: { required: true, description: doc.body, content: { 'application/json': { schema: {} } } } }),
    responses,
  };
}

/** The API as an OpenAPI 3.1 document, built from the routes themselves so it cannot drift from them. */
export function openApiDocument(api: Router, publicUrl: string | undefined): Json {
  const paths: Record<string, Json> = {};
  for (const route of apiRoutes(api)) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    // The API's version, not the server's: public health does not tell the build either.
    info: { title: 'LiveDash API', version: '1' },
    ...(publicUrl && { servers: [{ url: new URL(publicUrl).origin }] }),
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The console\'s sign-in session (POST /api/auth/login); writes must come from LiveDash itself' },
        personalToken: { type: 'http', scheme: 'bearer', description: 'A personal API token (POST /api/auth/tokens): acts with its owner\'s role' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token (ADMIN_TOKEN, unless ADMIN_TOKEN_DISABLED): acts as an admin, and ingests into any source' },
        ingestKey: { type: 'apiKey', in: 'query', name: 'key', description: "A data source's ingest key in the URL, for senders that can only be given a URL (source URL routes only)" },
        ingestKeyHeader: { type: 'http', scheme: 'bearer', description: "A data source's ingest key as a bearer token (or X-Ingest-Key): writes to its own source only" },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                fields: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
              },
            },
          },
        },
      },
    },
  };
}
