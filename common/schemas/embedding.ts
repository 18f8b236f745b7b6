import { z } from 'zod';

/** Most origins one dashboard may allow to embed it. */
export const MAX_EMBED_ORIGINS = 20;

/** An origin as a browser sends it: http(s)://host[:port], nothing after. */
export const EmbedOrigin = z
  .string()
  .trim()
  .min(1, 'Origin is empty')
  .max(300, 'Origin is too long')
  .superRefine((text, c) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return c.addIssue({ code: 'custom', message: `"${text}" is not an origin such as https://intranet.example.com` });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return c.addIssue({ code: 'custom', message: `"${text}" must start with https:// or http://` });
    if (url.origin.toLowerCase() !== text.replace(/\/$/, '').toLowerCase()) {
      c.addIssue({ code: 'custom', message: `"${text}" must be an origin only (scheme, host and port), like ${url.origin}` });
    }
  })
  .transform((text) => new URL(text).origin);

/** PUT /api/admin/dashboards/:id/embedding */
export const UpdateEmbedding = z
  .object({ origins: z.array(EmbedOrigin).max(MAX_EMBED_ORIGINS, `At most ${MAX_EMBED_ORIGINS} origins`) })
  .strict();
export type UpdateEmbedding = z.input<typeof UpdateEmbedding>;

/** Who may put a dashboard's viewer pages in an iframe (besides this site). */
export interface EmbeddingDto {
  dashboardId: string;
  origins: string[];
}
