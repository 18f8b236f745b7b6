import { Schema, type Connection, type Model } from 'mongoose';

/** The one settings document (`_id: 'settings'`). */
export interface SettingsDoc {
  _id: string;
  outboundAllowedHosts: string[];
  updatedAt: Date | null;
  updatedBy: string | null;
}

const settingsSchema = new Schema(
  {
    _id: { type: String, required: true },
    outboundAllowedHosts: { type: [String], default: [] },
    updatedAt: { type: Date, default: null },
    updatedBy: { type: String, default: null },
  },
  { versionKey: false, minimize: false },
);

export const SETTINGS_ID = 'settings';

/** The settings collection on a connection (registered once). */
export function settingsModel(conn: Connection): Model<SettingsDoc> {
  return (conn.models.Settings as Model<SettingsDoc> | undefined) ?? conn.model<SettingsDoc>('Settings', settingsSchema, 'settings');
}
