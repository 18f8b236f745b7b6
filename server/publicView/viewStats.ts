import mongoose, { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { VIEW_HISTORY_DAYS } from '@common/schemas/analytics';

const viewDaySchema = new Schema(
  {
    dashboardId: { type: String, required: true },
    /** UTC day, YYYY-MM-DD. */
    day: { type: String, required: true },
    views: { type: Number, default: 0 },
  },
  { minimize: false, versionKey: false },
);
viewDaySchema.index({ dashboardId: 1, day: 1 }, { unique: true });

type ViewDayDoc = InferSchemaType<typeof viewDaySchema> & { _id: mongoose.Types.ObjectId };

export const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The last `n` UTC days, oldest first. */
export function lastDays(n = VIEW_HISTORY_DAYS, now = Date.now()): string[] {
  return Array.from({ length: n }, (_, i) => utcDay(now - (n - 1 - i) * 86_400_000));
}

/** Pages remembered per dashboard and day; past it a new page still counts, but is not remembered. */
const MAX_PAGES_PER_DAY = 100_000;

/**
 * Views per dashboard and UTC day: one small counter document each. A view is one viewer page
 * opening the dashboard that day (see `view`), counted in memory; `flush` writes what was counted
 * since the last flush — one write per dashboard and day, however many joins — and the figures
 * read back include what is not written yet.
 */
export class ViewStats {
  /** Views counted and not yet written, by `<dashboardId> <day>`. */
  private readonly pending = new Map<string, number>();
  /** The pages that already counted a view, by `<dashboardId> <day>`. */
  private readonly pages = new Map<string, Set<string>>();
  /** Written totals this process knows, by `<dashboardId> <day>`. */
  private readonly written = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();
  /** Database commands made by flushes (tests read it). */
  writes = 0;

  private constructor(private readonly model: Model<ViewDayDoc>) {}

  static async open(conn: Connection): Promise<ViewStats> {
    const model = (conn.models.DashboardViewDay as Model<ViewDayDoc> | undefined) ?? conn.model<ViewDayDoc>('DashboardViewDay', viewDaySchema, 'dashboardviewdays');
    await model.createIndexes();
    return new ViewStats(model);
  }

  /**
   * A viewer page opened a dashboard: one view today, unless this page already counted one
   * (join/leave toggles and reconnects of the same page count once). Answers whether it counted.
   */
  view(dashboardId: string, page: string, now = Date.now()): boolean {
    const key = `${dashboardId} ${utcDay(now)}`;
    let seen = this.pages.get(key);
    if (!seen) this.pages.set(key, (seen = new Set()));
    if (seen.has(page)) return false;
    if (seen.size < MAX_PAGES_PER_DAY) seen.add(page);
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    return true;
  }

  /** Views today for one dashboard: the written total (read once if unknown) plus what is pending. */
  async today(dashboardId: string, now = Date.now()): Promise<{ day: string; views: number }> {
    const day = utcDay(now);
    const key = `${dashboardId} ${day}`;
    if (!this.written.has(key)) {
      const doc = await this.model.findOne({ dashboardId, day }).lean<ViewDayDoc>();
      if (!this.written.has(key)) this.written.set(key, doc?.views ?? 0);
    }
    return { day, views: (this.written.get(key) ?? 0) + (this.pending.get(key) ?? 0) };
  }

  /** Writes the pending views: one `$inc` per dashboard and day. Flushes never overlap. */
  flush(now = Date.now()): Promise<void> {
    this.flushing = this.flushing.then(() => this.write(now));
    return this.flushing;
  }

  private async write(now: number): Promise<void> {
    const batch = [...this.pending];
    this.pending.clear();
    const today = utcDay(now);
    for (const key of this.pages.keys()) if (!key.endsWith(today)) this.pages.delete(key);
    for (const key of this.written.keys()) if (!key.endsWith(today)) this.written.delete(key);
    for (const [key, n] of batch) {
      const [dashboardId, day] = key.split(' ');
      const inc = () => this.model.findOneAndUpdate({ dashboardId, day }, { $inc: { views: n } }, { upsert: true, returnDocument: 'after' }).lean<ViewDayDoc>();
      try {
        this.writes++;
        // Two first writes of a day at once (two processes): one upsert loses the unique index race; it is an update then.
        const doc = await inc().catch((e: { code?: number }) => (e.code === 11000 ? inc() : Promise.reject(e)));
        if (day === today && doc) this.written.set(key, doc.views);
      } catch (e) {
        // Not lost: counted again with the next flush.
        this.pending.set(key, (this.pending.get(key) ?? 0) + n);
        throw e;
      }
    }
  }

  /** Views per day of the last VIEW_HISTORY_DAYS days for each dashboard (zeros included, pending views too). */
  async history(dashboardIds: string[], now = Date.now()): Promise<Map<string, { day: string; views: number }[]>> {
    const days = lastDays(VIEW_HISTORY_DAYS, now);
    const docs = dashboardIds.length ? await this.model.find({ dashboardId: { $in: dashboardIds }, day: { $gte: days[0] } }).lean<ViewDayDoc[]>() : [];
    const counts = new Map(docs.map((d) => [`${d.dashboardId} ${d.day}`, d.views]));
    const views = (key: string) => (counts.get(key) ?? 0) + (this.pending.get(key) ?? 0);
    return new Map(dashboardIds.map((id) => [id, days.map((day) => ({ day, views: views(`${id} ${day}`) }))]));
  }
}
