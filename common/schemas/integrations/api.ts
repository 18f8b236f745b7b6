import { z } from 'zod';
import { pathProblem } from '../../paths';

/**
 * The config of an HTTP API integration (`type: "api"`): where the records are, how to sign in,
 * how to page and what makes a sync incremental. Shared by the server (checked on save) and the
 * console's form. Secrets (token, password, header value, client secret) are answered masked.
 */

/** Most pages one run of an API integration may be told to read (the server has its own cap too). */
export const API_MAX_PAGES = 1_000_000;
/** Most headers an API integration sends. */
export const API_MAX_HEADERS = 50;
/** Largest request body, in characters of JSON. */
export const API_MAX_BODY_CHARS = 64 * 1024;

const text = (what: string, max = 2000) => z.string({ error: `${what} is required` }).trim().min(1, `${what} is required`).max(max, `${what} must be at most ${max} characters`);

/** A dot path into an answer or a record (`data.items`, `meta.next`); `a\.b` names a key with a dot. */
const DotPath = (what: string) =>
  text(what, 500).superRefine((v, c) => {
    const problem = pathProblem(v);
    if (problem) c.addIssue({ code: 'custom', message: `${what}: ${problem}` });
  });

const HeaderName = z
  .string({ error: 'A header name is required' })
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'A header name is letters, digits and - (e.g. X-Api-Key)');
const HeaderValue = z.string({ error: 'A header value must be text' }).max(8192, 'A header value must be at most 8192 characters').regex(/^[^\r\n\x00]*$/, 'A header value must be one line');
const ParamName = (what: string) => text(what, 100);

const httpUrl = (what: string) =>
  text(what, 4000).superRefine((v, c) => {
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      return c.addIssue({ code: 'custom', message: `${what} must be a full address such as https://api.example.com/v1/items` });
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') c.addIssue({ code: 'custom', message: `${what} must start with https:// (or http://)` });
    if (u.username || u.password) c.addIssue({ code: 'custom', message: `${what} must not contain a user name or password: use auth (basic) instead` });
  });

export const ApiAuth = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('bearer'), token: text('The token', 8192) }).strict(),
    z.object({ type: z.literal('basic'), username: text('The user name', 1000), password: z.string({ error: 'The password is required' }).max(1000) }).strict(),
    z.object({ type: z.literal('header'), name: HeaderName, value: text('The header value', 8192) }).strict(),
    z.object({
      type: z.literal('oauth2'),
      tokenUrl: httpUrl('The token URL'),
      clientId: text('The client ID', 1000),
      clientSecret: text('The client secret', 4000),
      scope: z.string().trim().max(2000).optional(),
    }).strict(),
  ],
  { error: 'auth.type must be bearer, basic, header or oauth2' },
);
export type ApiAuth = z.infer<typeof ApiAuth>;

export const ApiPagination = z.discriminatedUnion(
  'type',
  [
    /** The next page's URL is in the answer at `path`. */
    z.object({ type: z.literal('next-url'), path: DotPath('The path of the next URL') }).strict(),
    /** The next page is the `rel="next"` link of the Link header (RFC 8288). */
    z.object({ type: z.literal('link-header') }).strict(),
    /** The answer's `path` holds a cursor, sent back as query parameter `param`. */
    z.object({ type: z.literal('cursor'), param: ParamName('The cursor parameter'), path: DotPath('The path of the next cursor') }).strict(),
    /** Query parameter `param` counts pages from `start` (default 1). */
    z.object({ type: z.literal('page'), param: ParamName('The page parameter'), start: z.number().int('start must be a whole number').min(0).max(1_000_000).optional() }).strict(),
    /** Query parameters `param` (records to skip) and `limitParam` (= `limit`). */
    z.object({
      type: z.literal('offset'),
      param: ParamName('The offset parameter'),
      limitParam: ParamName('The limit parameter'),
      limit: z.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(100_000, 'limit must be at most 100000'),
    }).strict(),
  ],
  { error: 'pagination.type must be next-url, link-header, cursor, page or offset' },
);
export type ApiPagination = z.infer<typeof ApiPagination>;

export const ApiConfig = z
  .object({
    url: httpUrl('The URL'),
    method: z.enum(['GET', 'POST'], { error: 'method must be GET or POST' }).optional(),
    headers: z
      .record(HeaderName, HeaderValue)
      .refine((h) => Object.keys(h).length <= API_MAX_HEADERS, `At most ${API_MAX_HEADERS} headers`)
      .optional(),
    /** POST only: a JSON body sent with every request. */
    body: z
      .unknown()
      .refine((b) => b === undefined || (typeof b === 'object' && b !== null), 'body must be a JSON object or array')
      .refine((b) => b === undefined || JSON.stringify(b).length <= API_MAX_BODY_CHARS, `body must be at most ${API_MAX_BODY_CHARS} characters of JSON`)
      .optional(),
    auth: ApiAuth.optional(),
    /** Where the records are in each answer (`data.items`); absent: the answer is the array. */
    recordsPath: DotPath('recordsPath').optional(),
    pagination: ApiPagination.optional(),
    primaryKey: DotPath('primaryKey').optional(),
    /** The largest `field` seen is kept and sent as query parameter `param` next time (without `param`: older records are skipped). */
    incremental: z.object({ field: DotPath('The incremental field'), param: ParamName('The incremental parameter').optional() }).strict().optional(),
    maxPages: z.number({ error: 'maxPages must be a number' }).int('maxPages must be a whole number').min(1, 'maxPages must be at least 1').max(API_MAX_PAGES).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.body !== undefined && (c.method ?? 'GET') !== 'POST') ctx.addIssue({ code: 'custom', path: ['body'], message: 'body is sent only with method POST' });
  });
export type ApiConfig = z.infer<typeof ApiConfig>;
