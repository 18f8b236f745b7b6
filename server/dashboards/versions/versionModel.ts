import { Schema, type Model } from 'mongoose';
import type { DashboardVersionDto, VersionAuthor, VersionContent } from '@common/schemas/dashboardVersion';
import type { AppContext, DashboardDoc } from '../../core';
import { AppHandle, dashboardConfiguration } from '../../core';

/**
 * One document per save of a dashboard: who, when, why, what changed in words, and the dashboard as
 * it became. Its `_id` is `<dashboardId>:<version>`, so the collection has no unique index but
 * `_id` (on the offline engine every unique index makes each insert cost the square of the
 * collection's size) and two saves can never store the same number.
 */
export interface DashboardVersionDoc {
  _id: string;
  dashboardId: string;
  version: number;
  createdAt: Date;
  author: VersionAuthor;
  message: string | null;
  summary: string;
  restoredFrom: number | null;
  /**
   * name, description, dataSourceId, isPublished and configuration (keys escaped as on the
   * dashboard), as JSON text: never queried inside, and one string is the cheapest value to insert
   * on the offline engine (`contentOf` reads it).
   */
  content: string;
}

/** The dashboard's own fields as a version keeps them (configuration as stored: keys escaped). */
export type StoredContent = Pick<DashboardDoc, 'name' | 'description' | 'dataSourceId' | 'isPublished' | 'configuration'>;

const versionSchema = new Schema<DashboardVersionDoc>(
  {
    _id: { type: String, required: true },
    dashboardId: { type: String, required: true },
    version: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    author: { type: Schema.Types.Mixed, required: true },
    message: { type: String, default: null },
    summary: { type: String, default: '' },
    restoredFrom: { type: Number, default: null },
    content: { type: String, required: true },
  },
  { minimize: false, versionKey: false },
);
versionSchema.index({ dashboardId: 1, version: -1 });

/** The `dashboard_versions` collection of an app's connection. */
export const versionsOf = new AppHandle<Model<DashboardVersionDoc>>('dashboard versions', (app) =>
  (app.conn.models.DashboardVersion as Model<DashboardVersionDoc> | undefined) ?? app.conn.model<DashboardVersionDoc>('DashboardVersion', versionSchema, 'dashboard_versions'),
);

/** Registers the collection and builds its index (at start: the offline engine has no `create`). */
export async function initVersions(app: AppContext): Promise<void> {
  await versionsOf.of(app).createIndexes();
}

export const versionId = (dashboardId: string, version: number) => `${dashboardId}:${version}`;

/** What a version keeps of a dashboard document. */
export const storedContent = (d: StoredContent): StoredContent => ({
  name: d.name, description: d.description ?? '', dataSourceId: d.dataSourceId ?? null, isPublished: Boolean(d.isPublished), configuration: d.configuration ?? {},
});

/** A version's dashboard fields, as stored on a dashboard. */
export const contentOf = (v: Pick<DashboardVersionDoc, 'content'>): StoredContent => JSON.parse(v.content) as StoredContent;

/** A version's dashboard as the API shows it (keys unescaped, defaults filled in). */
export function presentContent(c: StoredContent): VersionContent {
  return {
    name: c.name, description: c.description ?? '', dataSourceId: c.dataSourceId ?? null, isPublished: Boolean(c.isPublished),
    configuration: dashboardConfiguration({ configuration: c.configuration } as DashboardDoc),
  };
}

/** A history entry (without the content). */
export function presentVersion(v: DashboardVersionDoc): DashboardVersionDto {
  return {
    dashboardId: v.dashboardId, version: v.version, createdAt: new Date(v.createdAt).toISOString(), author: v.author,
    message: v.message ?? null, summary: v.summary ?? '', restoredFrom: v.restoredFrom ?? null,
  };
}
