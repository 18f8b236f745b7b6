import type { Connection } from 'mongoose';
import type { Config } from './config';
import type { DatabaseHandle } from './db/startDatabase';
import type { DomainEventBus } from './events';
import type { Logger } from './log';
import type { Models } from './models';

/**
 * Everything a service needs, passed explicitly (no module-level singletons). Core holds only what
 * every feature shares; a feature's own per-app state (its caches, queues, the activity log, the
 * accounts) lives in an `AppHandle` the feature declares, so core never imports a feature.
 */
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
  /** The features' per-app state, one slot per `AppHandle` (read and written only through the handles). */
  readonly handles: Map<AppHandle<unknown>, unknown>;
}

/**
 * A typed slot on the app context for one feature's per-app state. With a maker, the state is made
 * on first use (a cache, a queue); without one, start-up sets it (`set`) and `of` before that throws.
 */
export class AppHandle<T> {
  constructor(
    readonly name: string,
    private readonly make?: (app: AppContext) => T,
  ) {}

  of(app: AppContext): T {
    if (app.handles.has(this)) return app.handles.get(this) as T;
    if (!this.make) throw new Error(`${this.name} is not started on this app`);
    const value = this.make(app);
    app.handles.set(this, value);
    return value;
  }

  /** The state if it was made or set already (shutdown steps must not create it). */
  peek(app: AppContext): T | undefined {
    return app.handles.get(this) as T | undefined;
  }

  set(app: AppContext, value: T): void {
    app.handles.set(this, value);
  }

  /** Forgets the state (a feature that stopped); the next `of` makes it again or throws. */
  clear(app: AppContext): void {
    app.handles.delete(this);
  }
}
