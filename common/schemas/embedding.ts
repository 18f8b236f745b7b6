import { z } from 'zod';
import { embedOriginProblem, MAX_EMBED_ORIGINS } from '../sharing';

export { MAX_EMBED_ORIGINS } from '../sharing';

/** An origin as a browser sends it: http(s)://host[:port], nothing after. */
export const EmbedOrigin = z
  .string()
  .superRefine((text, c) => {
    const problem = embedOriginProblem(text);
    if (problem) c.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => new URL(text.trim()).origin);

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
