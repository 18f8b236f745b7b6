import type { Connection } from 'mongoose';
import type { Accounts } from '../access/accounts/accounts';
import type { Config } from './config';
import type { DatabaseHandle } from './db/startDatabase';
import type { DomainEventBus } from './events';
import type { Logger } from './log';
import type { RateLimits } from '../access/rateLimits';
import type { Models } from './models';
import type { ActivityLog } from '../activity/activityLog';

/** Everything a service needs, passed explicitly (no module-level singletons). */
export interface AppContext {
  config: Config;
  log: Logger;
  db: DatabaseHandle;
  conn: Connection;
  models: Models;
  events: DomainEventBus;
  adminToken: string;
  startedAt: number;
  /** Whether the deployment runs multi-document transactions (replica set or sharded). */
  transactions: boolean;
  /** Rate limits shared by the routes (per address, per credential). */
  limits: RateLimits;
  /** The activity log (admin actions, ingests, refused credentials, syncs). */
  activity: ActivityLog;
  /** People's sessions and personal API tokens (server/auth). */
  accounts: Accounts;
}
