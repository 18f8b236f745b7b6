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

/** Views per dashboard and UTC day: one small counter document each, incremented per viewer load. */
export class ViewStats {
  private constructor(private readonly model: Model<ViewDayDoc>) {}

  static async open(conn: Connection): Promise<ViewStats> {
    const model = (conn.models.DashboardViewDay as Model<ViewDayDoc> | undefined) ?? conn.model<ViewDayDoc>('DashboardViewDay', viewDaySchema, 'dashboardviewdays');
    await model.createIndexes();
    return new ViewStats(model);
  }

  /** Counts one view today; answers today's total. */
  async count(dashboardId: string, now = Date.now()): Promise<{ day: string; views: number }> {
    const day = utcDay(now);
    const inc = () => this.model.findOneAndUpdate({ dashboardId, day }, { $inc: { views: 1 } }, { upsert: true, returnDocument: 'after' }).lean<ViewDayDoc>();
    // Two first views of a day at once: one upsert loses the unique index race; it is an update then.
    const doc = await inc().catch((e: { code?: number }) => (e.code === 11000 ? inc() : Promise.reject(e)));
    return { day, views: doc?.views ?? 1 };
  }

  /** Views per day of the last VIEW_HISTORY_DAYS days for each dashboard (zeros included). */
  async history(dashboardIds: string[], now = Date.now()): Promise<Map<string, { day: string; views: number }[]>> {
    const days = lastDays(VIEW_HISTORY_DAYS, now);
    const docs = dashboardIds.length ? await this.model.find({ dashboardId: { $in: dashboardIds }, day: { $gte: days[0] } }).lean<ViewDayDoc[]>() : [];
    const counts = new Map(docs.map((d) => [`${d.dashboardId} ${d.day}`, d.views]));
    return new Map(dashboardIds.map((id) => [id, days.map((day) => ({ day, views: counts.get(`${id} ${day}`) ?? 0 }))]));
  }
}
