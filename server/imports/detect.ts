import { parse as parseCsv } from 'csv-parse/sync';
import { IMPORT_DELIMITERS, type ImportSettings } from '@common/schemas/imports';
import { parseDateText } from '@common/types/dates';

/**
 * Reads how a file is written from its first bytes: encoding (a BOM, else valid UTF-8, else
 * UTF-16 by its zero bytes, else Windows-1252), format (a JSON array, NDJSON or delimited text),
 * delimiter and quote, and whether the first row is a header. The person sees and can correct each.
 */

export type Encoding = ImportSettings['encoding'];

export function detectEncoding(head: Buffer): Encoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  // Text in UTF-16 without a BOM: ASCII characters leave every other byte zero.
  const n = Math.min(head.length, 4096) & ~1;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenZeros++;
    if (head[i + 1] === 0) oddZeros++;
  }
  if (n >= 8 && oddZeros > n / 4 && evenZeros === 0) return 'utf-16le';
  if (n >= 8 && evenZeros > n / 4 && oddZeros === 0) return 'utf-16be';
  try {
    // stream: a character cut at the sample's end is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** Text decoded from the file's first bytes (BOM dropped). */
export const decodeHead = (head: Buffer, encoding: Encoding) => new TextDecoder(encoding).decode(head, { stream: true });

function detectFormat(text: string, fileName: string): ImportSettings['format'] {
  const start = text.trimStart();
  if (start.startsWith('[')) return 'json';
  if (start.startsWith('{')) return 'ndjson';
  if (/\.(ndjson|jsonl)$/i.test(fileName)) return 'ndjson';
  return 'csv';
}

/** Lines of text with quoted parts taken out (a delimiter inside quotes does not count). */
const sampleLines = (text: string, quote: string) => {
  const unquoted = text.split(quote).filter((_, i) => i % 2 === 0).join('');
  return unquoted.split(/\r\n|\n|\r/).filter((l) => l.trim()).slice(0, 50);
};

/** The delimiter found the same number of times (at least once) on the most sample lines. */
function detectDelimiter(text: string, quote: string, fileName: string): string {
  const lines = sampleLines(text, quote);
  // The last line may be cut by the sample's end.
  const whole = lines.length > 2 ? lines.slice(0, -1) : lines;
  let best = /\.tsv$/i.test(fileName) ? '\t' : ',';
  let bestScore = 0;
  for (const d of IMPORT_DELIMITERS) {
    const counts = whole.map((l) => l.split(d).length - 1);
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const same = counts.filter((c) => c === first).length;
    const score = same * 1000 + first;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

const NUMBER = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/** A header row: every cell a distinct non-empty name, none of them a number or a date. */
export function looksLikeHeader(cells: string[]): boolean {
  const names = cells.map((c) => c.trim());
  if (!names.length || names.some((c) => !c)) return false;
  if (new Set(names).size !== names.length) return false;
  return !names.some((c) => NUMBER.test(c) || parseDateText(c) !== null);
}

/** The first CSV row of the sample, or null when it cannot be read. */
function firstRow(text: string, s: ImportSettings): string[] | null {
  try {
    const rows = parseCsv(text, { delimiter: s.delimiter, quote: s.quote, bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, to: 1 }) as string[][];
    return rows[0] ?? null;
  } catch {
    return null;
  }
}

export function detectSettings(head: Buffer, fileName: string): ImportSettings {
  const encoding = detectEncoding(head);
  const text = decodeHead(head, encoding);
  const format = detectFormat(text, fileName);
  const quote = '"';
  const settings: ImportSettings = { format, encoding, delimiter: format === 'csv' ? detectDelimiter(text, quote, fileName) : ',', quote, header: true };
  if (format === 'csv') {
    const cells = firstRow(text, settings);
    settings.header = cells ? looksLikeHeader(cells) : true;
  }
  return settings;
}
