import crypto from 'node:crypto';
import type { AppContext, RedisClient } from '../core';
import { reloadSettings } from './settings';

/** The Redis pub/sub channel on which a process says "the settings changed: read them again". */
export const SETTINGS_CHANNEL = 'livedash:settings';

/**
 * Applies a change made on any process in every other one at once: each local change is published,
 * and on a message from another process the settings are read again from the database (the truth,
 * so messages need carry nothing and may arrive in any order). When Redis comes back after a loss,
 * the process reads them again and asks the others to, since messages may have been lost.
 */
export async function startSettingsRelay(ctx: AppContext, pub: RedisClient, sub: RedisClient): Promise<() => void> {
  const origin = crypto.randomUUID();
  const reload = () => void reloadSettings(ctx).catch((e: unknown) => ctx.log.error('settings: could not read them again', e));
  const announce = () => void pub.publish(SETTINGS_CHANNEL, origin).catch((e: unknown) => ctx.log.error('settings: could not tell the other processes of a change (they read them again when Redis is back)', e));
  await sub.subscribe(SETTINGS_CHANNEL, (from) => {
    if (from === origin) return;
    reload();
    ctx.events.emit('settings.changed', { relayed: true });
  });
  let lost = false;
  const onError = () => void (lost = true);
  const onReady = () => {
    if (!lost || !pub.isReady || !sub.isReady) return;
    lost = false;
    reload();
    announce();
  };
  for (const c of [pub, sub]) {
    c.on('error', onError);
    c.on('ready', onReady);
  }
  const off = ctx.events.on('settings.changed', (e) => {
    if (!e.relayed) announce();
  });
  return () => {
    off();
    for (const c of [pub, sub]) {
      c.off('error', onError);
      c.off('ready', onReady);
    }
  };
}
