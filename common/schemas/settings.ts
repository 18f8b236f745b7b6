import { z } from 'zod';

/** A host and port, as outbound allow-lists write them: `127.0.0.1:5199`, `hooks.internal:8080`, `[::1]:9000`. */
export const HOST_PORT = /^[a-z0-9.-]+:\d{1,5}$|^\[[0-9a-f:]+\]:\d{1,5}$/;

const hostPort = z
  .string()
  .trim()
  .toLowerCase()
  .regex(HOST_PORT, 'must be host:port, e.g. 127.0.0.1:5199 (no http://, no path)')
  .refine((v) => {
    const port = Number(v.slice(v.lastIndexOf(':') + 1));
    return port >= 1 && port <= 65535;
  }, 'its port must be 1–65535');

/** PUT /api/admin/settings: the settings an admin changes while the product runs (each replaced as sent). */
export const UpdateSettings = z
  .object({
    /** host:port pairs outbound calls (alert channels, integrations, reports) may reach over plain http or at a loopback, private or link-local address. */
    outboundAllowedHosts: z.array(hostPort).max(200, 'at most 200 outbound hosts'),
  })
  .strict();
export type UpdateSettings = z.infer<typeof UpdateSettings>;

/** GET/PUT /api/admin/settings. */
export interface SettingsDto {
  outboundAllowedHosts: string[];
  /** What the environment sets (OUTBOUND_ALLOWED_HOSTS): always allowed, changed only by a restart. */
  fromEnvironment: { outboundAllowedHosts: string[] };
  updatedAt: string | null;
  /** Who changed them last (a name, or "admin token"). */
  updatedBy: string | null;
}
