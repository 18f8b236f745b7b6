import type { Context, Middleware } from 'koa';
import type { ActivityEntryDto, ActivityQuery } from '@common/schemas/activity';
import { AppHandle } from './context';
import type { Principal } from './principal';

/**
 * The activity log as every feature records into it. The activity feature implements it and sets
 * it at start-up; the others only record, so they depend on this interface, not on that feature.
 */

/** Counts added to a minute's summary ("records": 12, "requests": 3). */
export type MinuteCounts = Record<string, number>;

type Optional = 'address' | 'objectType' | 'objectId' | 'objectName' | 'credential' | 'keyHint' | 'details' | 'actor' | 'userId';
export type ActivityInput = Omit<ActivityEntryDto, 'id' | 'at' | Optional> & Partial<Pick<ActivityEntryDto, Optional>>;

/** Who acts in a request: the person (name or email), "admin token", or an ingest key. */
export interface Actor {
  actor: string;
  userId: string | null;
  credential: NonNullable<ActivityEntryDto['credential']>;
}

export const actorOf = (p: Principal): Actor =>
  p.user
    ? { actor: p.user.name || p.user.email, userId: p.user.id, credential: p.via === 'apiToken' ? 'apiToken' : 'session' }
    : { actor: 'admin token', userId: null, credential: 'admin' };

/** This app's activity log, set at start-up. */
export const activityHandle = new AppHandle<ActivityLog>('the activity log');

export interface ActivityLog {
  /** Adds an entry (written in batches) and announces it at once. */
  record(input: ActivityInput): void;
  /** Adds counts to the minute's summary of this kind and object (frequent events: one entry per minute, announced as it is written). */
  countPerMinute(head: Omit<ActivityInput, 'summary'>, counts: MinuteCounts): void;
  /** Names the person (or the admin token) acting in the current request; later entries of the request carry it. */
  identify(principal: Principal): void;
  /** A credential was refused (one call in the route guards). */
  signInFailed(ctx: Context, audience: string): void;
  /** Mounted before the API: logs successful admin actions and every ingest, with the caller's address. */
  middleware(): Middleware;
  list(query: ActivityQuery): Promise<ActivityEntryDto[]>;
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Entries and per-minute summaries waiting to be written (with the summaries of this minute, at most ACTIVITY_MAX_QUEUED are held). */
  queued(): number;
  /** Entries dropped since start because the queue was full. */
  dropped(): number;
}

