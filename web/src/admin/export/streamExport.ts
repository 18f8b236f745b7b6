import { SIGN_IN_AGAIN_CODES } from '@common/schemas/errors';
import type { ExportFormat } from '@common/schemas/export';
import { useSession } from '../../api/session';

export interface ExportProgress {
  bytes: number;
  /** Records received so far (counted by the line breaks that end records: not those inside a quoted CSV cell). */
  rows: number;
}

/** The file name of a Content-Disposition header (the exact UTF-8 name when given). */
export function attachmentName(header: string | null, fallback: string): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '');
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1]);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]*)"/i.exec(header ?? '')?.[1] ?? fallback;
}

/** Records in a file of this many line breaks: CSV has a header row, a JSON array an opening and a closing line. */
const rowsOf = (format: ExportFormat, lineBreaks: number, done: boolean) =>
  Math.max(0, format === 'ndjson' ? lineBreaks : format === 'csv' ? lineBreaks - 1 : lineBreaks - (done ? 2 : 1));

/**
 * Counts the records of an export as its bytes arrive, chunk by chunk. A line break ends a record,
 * except inside a quoted CSV cell (a quote opens a cell's quoting and the next one closes it; a
 * doubled quote, the escape, closes and reopens it). JSON and NDJSON escape their line breaks.
 */
export function recordCounter(format: ExportFormat) {
  let lineBreaks = 0;
  let quoted = false;
  return {
    add(chunk: Uint8Array) {
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        if (b === 34 && format === 'csv') quoted = !quoted;
        else if (b === 10 && !quoted) lineBreaks++;
      }
    },
    rows: (done: boolean) => rowsOf(format, lineBreaks, done),
  };
}

/**
 * Downloads an export with the signed-in session, reading the stream chunk by chunk so the screen can
 * show bytes and records as they arrive; the chunks become one Blob to save.
 */
export async function streamExport(url: string, format: ExportFormat, signal: AbortSignal, onProgress: (p: ExportProgress) => void): Promise<{ blob: Blob; fileName: string; progress: ExportProgress }> {
  // The session cookie authenticates it (same origin): the console holds no token.
  const res = await fetch(url, { credentials: 'same-origin', signal });
  if (!res.ok || !res.body) {
    const text = await res.text();
    let message = text || res.statusText;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: string; code?: string } };
      message = parsed.error?.message ?? message;
      if (parsed.error?.code && SIGN_IN_AGAIN_CODES.includes(parsed.error.code)) useSession.getState().signOut(message);
    } catch {
      // not JSON: keep the text
    }
    throw new Error(`${res.status}: ${message}`);
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const counter = recordCounter(format);
  let lastReport = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    counter.add(value);
    // At most about 20 updates a second: a re-render per chunk would slow a fast download.
    if (performance.now() - lastReport > 50) {
      lastReport = performance.now();
      onProgress({ bytes, rows: counter.rows(false) });
    }
  }
  const progress = { bytes, rows: counter.rows(true) };
  onProgress(progress);
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  return { blob: new Blob(chunks as BlobPart[], { type }), fileName: attachmentName(res.headers.get('content-disposition'), `export.${format}`), progress };
}
