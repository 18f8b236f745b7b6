import { AppHandle, type AppContext } from '../context';

/** The settings an admin changes while the product runs, as this process holds them (server/settings keeps them in the database and applies changes from every process). */
export interface RuntimeSettings {
  /** host:port pairs added under Settings › Outbound hosts, on top of OUTBOUND_ALLOWED_HOSTS. */
  outboundAllowedHosts: readonly string[];
}

/** This app's runtime settings; none until the settings feature has loaded them at start. */
export const runtimeSettings = new AppHandle<RuntimeSettings>('the runtime settings', () => ({ outboundAllowedHosts: [] }));

/**
 * The host:port pairs outbound calls may reach over plain http or at a loopback, private or
 * link-local address: OUTBOUND_ALLOWED_HOSTS (the base list, from the environment) and those an
 * admin allowed under Settings › Outbound hosts — read at each call, so a change applies at once.
 * Every caller of core/outbound (alert channels; integrations and reports) asks this one function.
 */
export function outboundAllowedHosts(app: AppContext): string[] {
  const added = runtimeSettings.of(app).outboundAllowedHosts;
  return added.length ? [...new Set([...app.config.OUTBOUND_ALLOWED_HOSTS, ...added])] : app.config.OUTBOUND_ALLOWED_HOSTS;
}

/** Where a person allows an outbound host, in the words every refusal uses. */
export const ALLOW_OUTBOUND_WHERE = 'Settings › Outbound hosts';
