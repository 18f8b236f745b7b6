import type { SettingsDto, UpdateSettings } from '@common/schemas/settings';
import { runtimeSettings, type AppContext } from '../core';
import { SETTINGS_ID, settingsModel, type SettingsDoc } from './models';

/**
 * The settings an admin changes while the product runs. One document in the database is the truth;
 * each process holds a copy on its app (core's `runtimeSettings`, read by `outboundAllowedHosts`),
 * loaded at start and again whenever any process changes them (relay.ts) — so a change applies at
 * once everywhere, and survives restarts. Start-up facts (ports, database, secrets) stay in the
 * environment.
 */

const read = (app: AppContext) => settingsModel(app.conn).findById(SETTINGS_ID).lean<SettingsDoc>();

/** Loads the settings into this process (at start, and when another process changed them). */
export async function reloadSettings(app: AppContext): Promise<SettingsDoc | null> {
  const doc = await read(app);
  runtimeSettings.set(app, { outboundAllowedHosts: doc?.outboundAllowedHosts ?? [] });
  return doc;
}

function present(app: AppContext, doc: SettingsDoc | null): SettingsDto {
  return {
    outboundAllowedHosts: doc?.outboundAllowedHosts ?? [],
    fromEnvironment: { outboundAllowedHosts: app.config.OUTBOUND_ALLOWED_HOSTS },
    updatedAt: doc?.updatedAt ? new Date(doc.updatedAt).toISOString() : null,
    updatedBy: doc?.updatedBy ?? null,
  };
}

export async function getSettings(app: AppContext): Promise<SettingsDto> {
  return present(app, await reloadSettings(app));
}

/** Replaces the settings, applies them here at once and announces the change (the relay tells the other processes; the activity log keeps it). */
export async function updateSettings(app: AppContext, input: UpdateSettings, by: string): Promise<SettingsDto> {
  const before = (await read(app))?.outboundAllowedHosts ?? [];
  const hosts = [...new Set(input.outboundAllowedHosts)];
  const doc = await settingsModel(app.conn)
    .findOneAndUpdate({ _id: SETTINGS_ID }, { $set: { outboundAllowedHosts: hosts, updatedAt: new Date(), updatedBy: by } }, { upsert: true, returnDocument: 'after' })
    .lean<SettingsDoc>();
  runtimeSettings.set(app, { outboundAllowedHosts: doc?.outboundAllowedHosts ?? hosts });
  app.events.emit('settings.changed', {});
  const added = hosts.filter((h) => !before.includes(h));
  const removed = before.filter((h) => !hosts.includes(h));
  if (added.length || removed.length) {
    const words = [added.length ? `allowed outbound host${added.length > 1 ? 's' : ''} ${added.join(', ')}` : '', removed.length ? `removed outbound host${removed.length > 1 ? 's' : ''} ${removed.join(', ')}` : ''];
    app.events.emit('activity.happened', {
      kind: 'settings.updated', category: 'admin',
      summary: `Settings: ${words.filter(Boolean).join('; ')}`,
      details: { added, removed, outboundAllowedHosts: hosts },
    });
  }
  return present(app, doc);
}
