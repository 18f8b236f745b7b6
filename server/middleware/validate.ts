import type { z } from 'zod';
import { ValidationError } from '../errors';

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
