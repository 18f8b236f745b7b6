import type { ActivityEntryDto } from '@common/schemas/activity';
import type { ActivityEntryDoc } from '../core';
import { summaryText } from './minuteSummaries';

/** An activity entry as the console and the CSV show it. */
export function presentActivity(d: ActivityEntryDoc): ActivityEntryDto {
  return {
    id: String(d._id),
    at: new Date(d.at).toISOString(),
    kind: d.kind,
    category: d.category as ActivityEntryDto['category'],
    objectType: (d.objectType ?? null) as ActivityEntryDto['objectType'],
    objectId: d.objectId ?? null,
    objectName: d.objectName ?? null,
    // A per-minute summary's words follow its counts (which every process adds to).
    summary: (d.details as { perMinute?: unknown } | null)?.perMinute === true ? summaryText(d.kind, d.details as Record<string, unknown>) : (d.summary ?? ''),
    address: d.address ?? null,
    credential: (d.credential ?? null) as ActivityEntryDto['credential'],
    keyHint: d.keyHint ?? null,
    actor: d.actor ?? null,
    userId: d.userId ?? null,
    details: (d.details ?? {}) as ActivityEntryDto['details'],
  };
}

const HEADER = ['Time', 'Kind', 'Category', 'Object type', 'Object id', 'Object name', 'Summary', 'Address', 'Credential', 'Key hint', 'Actor'];

/** A CSV cell: quoted when needed, and never a formula a spreadsheet would run. */
function cell(v: string | null): string {
  let text = v ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The entries as CSV (UTF-8 with BOM, CRLF). */
export function activityCsv(entries: ActivityEntryDto[]): string {
  const rows = entries.map((e) => [e.at, e.kind, e.category, e.objectType, e.objectId, e.objectName, e.summary, e.address, e.credential, e.keyHint, e.actor].map(cell).join(','));
  return `\uFEFF${[HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}
