import crypto from 'node:crypto';
import mongoose, { type AnyBulkWriteOperation } from 'mongoose';
import type { ActivityEntryDoc, MinuteCounts } from '../core';

/** Counts one event adds to its minute's summary (requests, records, rejected…; removed for retention). */
export type { MinuteCounts } from '../core';

/** What a summary is about and who acted: the fields it shares with every entry, and details that do not add up. */
export type SummaryHead = Pick<ActivityEntryDoc, 'kind' | 'category' | 'objectType' | 'objectId' | 'objectName' | 'credential' | 'actor' | 'userId' | 'keyHint' | 'address'> & {
  details: Record<string, string | string[]>;
};

interface Open {
  doc: ActivityEntryDoc;
  /** Counted since the last write (written as $inc, so several processes add up). */
  unwritten: MinuteCounts;
  minute: number;
}

const MINUTE = 60_000;
const n = (x: number, one: string, many = `${one}s`) => `${(x ?? 0).toLocaleString('en-US')} ${x === 1 ? one : many}`;

/** The words of a summary entry, from its kind and counts (made when read: every process adds to the counts). */
export function summaryText(kind: string, d: Record<string, unknown>): string {
  const c = (k: string) => Number(d[k] ?? 0);
  if (kind === 'records.evicted') return `Retention removed ${n(c('removed'), 'record')} in one minute (it ${String(d.reason ?? 'keeps records within its limit')})`;
  const refused = c('refused') ? `, ${n(c('refused'), 'request')} refused` : '';
  return `Ingest in one minute: ${n(c('requests'), 'request')}, ${n(c('records'), 'record')} (${c('inserted')} inserted, ${c('updated')} updated, ${c('rejected')} rejected)${refused}`;
}

/**
 * Frequent activity summarised per minute: ingest per data source and credential, retention's
 * removals after writes per data source — one entry with the counts instead of one per request,
 * so a source taking 100 requests a second costs the log one write per sender every few seconds.
 * Each summary's id is derived from its minute and key, so later counts (and other processes) add
 * to the same entry. At most `max` summaries are open at once (`add` answers false past it).
 */
export class MinuteSummaries {
  private open = new Map<string, Open>();

  constructor(private readonly max: number) {}

  /** Summaries held in memory. */
  get size(): number {
    return this.open.size;
  }

  /** Summaries with counts not written yet. */
  get unwritten(): number {
    let n = 0;
    for (const open of this.open.values()) if (Object.keys(open.unwritten).length) n++;
    return n;
  }

  /** Counts one event; false when its summary is new and `max` are already open. */
  add(head: SummaryHead, counts: MinuteCounts, now = Date.now()): boolean {
    const minute = Math.floor(now / MINUTE) * MINUTE;
    const key = JSON.stringify([minute, head.kind, head.objectId, head.details.sources ?? null, head.credential, head.userId, head.keyHint, head.actor]);
    let open = this.open.get(key);
    if (!open) {
      if (this.open.size >= this.max) return false;
      const _id = new mongoose.Types.ObjectId(`${(minute / 1000).toString(16).padStart(8, '0')}${crypto.createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
      const doc = { ...head, _id, at: new Date(minute), summary: '', details: { ...head.details, perMinute: true, until: new Date(minute + MINUTE).toISOString() } } as unknown as ActivityEntryDoc;
      this.open.set(key, (open = { doc, unwritten: {}, minute }));
    }
    const details = open.doc.details as Record<string, number>;
    for (const [k, v] of Object.entries(counts)) {
      details[k] = (details[k] ?? 0) + v;
      open.unwritten[k] = (open.unwritten[k] ?? 0) + v;
    }
    // The latest address stands for the minute (senders behind one key rarely move).
    if (head.address) open.doc.address = head.address;
    return true;
  }

  /**
   * The writes of what was counted since the last call (one upsert per summary), and the entries
   * as they stand now (for the live feed). Summaries of past minutes are let go once written.
   */
  take(now = Date.now()): { ops: AnyBulkWriteOperation<ActivityEntryDoc>[]; entries: ActivityEntryDoc[] } {
    const ops: AnyBulkWriteOperation<ActivityEntryDoc>[] = [];
    const entries: ActivityEntryDoc[] = [];
    const current = Math.floor(now / MINUTE) * MINUTE;
    for (const [key, open] of this.open) {
      const counted = Object.keys(open.unwritten);
      if (counted.length) {
        const { _id, details, address, ...fields } = open.doc;
        const all = details as Record<string, unknown>;
        const fixed = Object.fromEntries(Object.keys(all).filter((k) => !counted.includes(k) && typeof all[k] !== 'number').map((k) => [`details.${k}`, all[k]]));
        ops.push({
          updateOne: {
            filter: { _id },
            update: { $inc: Object.fromEntries(counted.map((k) => [`details.${k}`, open.unwritten[k]])), $set: { address }, $setOnInsert: { ...fields, ...fixed } },
            upsert: true,
          },
        } as AnyBulkWriteOperation<ActivityEntryDoc>);
        entries.push({ ...open.doc, details: { ...all } } as ActivityEntryDoc);
        open.unwritten = {};
      }
      if (open.minute < current) this.open.delete(key);
    }
    return { ops, entries };
  }
}
