/**
 * Field paths: how a primary key, time field, column, bucket key, widget field or filter names a
 * value inside a record, nested JSON included. One reader for server and web alike.
 *
 * Syntax: names joined by `.` (`issue.id`, `values.0`); a `.` inside a name is written `\.` and a
 * backslash `\\` (`a\.b` is the field named "a.b"). A record's own field whose name is exactly the
 * path wins, so fields named with dots (ingested before paths existed) keep reading as they did.
 * Only own properties are read (never a prototype's: `toString`, `__proto__`); a number segment
 * indexes an array.
 */
type Data = Record<string, unknown>;

const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** The segments of a path (`a\.b.c` → ["a.b", "c"]). */
export function parsePath(path: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '\\' && i + 1 < path.length) cur += path[++i];
    else if (c === '.') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Writes segments as a path, escaping `.` and `\` inside names. */
export function formatPath(segments: readonly string[]): string {
  return segments.map((s) => s.replace(/[\\.]/g, (m) => `\\${m}`)).join('.');
}

/** The problem with a path, or null: no empty segment, at most 32 levels, at most 500 characters. */
export function pathProblem(path: string): string | null {
  if (!path) return 'is empty';
  if (path.length > 500) return 'is longer than 500 characters';
  const segments = parsePath(path);
  if (segments.length > 32) return 'is deeper than 32 levels';
  if (segments.some((s) => s === '')) return `has an empty name in "${path}" (write a dot inside a name as \\.)`;
  return null;
}

function walk(value: unknown, segments: readonly string[]): unknown {
  let cur = value;
  for (const s of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(s)) return undefined;
      cur = cur[Number(s)];
    } else if (hasOwn(cur, s)) cur = (cur as Data)[s];
    else return undefined;
  }
  return cur;
}

/** The value at a path in a record (undefined when absent). */
export function readPath(data: Data, path: string): unknown {
  if (hasOwn(data, path)) return data[path];
  if (!path.includes('.')) return undefined;
  return walk(data, parsePath(path));
}

/** `readPath` for one path, compiled once for a pass over many records. */
export function pathReader(path: string): (data: Data) => unknown {
  if (!path.includes('.') && !path.includes('\\')) {
    if (path in Object.prototype) return (data) => (hasOwn(data, path) ? data[path] : undefined);
    return (data) => data[path];
  }
  const segments = parsePath(path);
  return (data) => (hasOwn(data, path) ? data[path] : walk(data, segments));
}

/** Whether a record holds a value (not undefined) at a path. */
export const hasPath = (data: Data, path: string) => readPath(data, path) !== undefined;

/**
 * Sets a value at a path, creating plain objects on the way (arrays are indexed, never created).
 * Returns false when the path runs into a value that is not an object.
 */
export function writePath(data: Data, path: string, value: unknown): boolean {
  const segments = parsePath(path);
  let cur: Data = data;
  for (let i = 0; i < segments.length - 1; i++) {
    const s = segments[i];
    const next = hasOwn(cur, s) ? cur[s] : undefined;
    if (next === undefined) {
      const made: Data = {};
      Object.defineProperty(cur, s, { value: made, enumerable: true, writable: true, configurable: true });
      cur = made;
    } else if (next !== null && typeof next === 'object') cur = next as Data;
    else return false;
  }
  Object.defineProperty(cur, segments[segments.length - 1], { value, enumerable: true, writable: true, configurable: true });
  return true;
}
