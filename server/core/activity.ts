import type { ActivityEntryDto, ActivityQuery } from '@common/schemas/activity';
import { AppHandle } from './context';

/**
 * The activity log as the rest of the server sees it: read, flushed and closed. Nothing writes it
 * directly: features announce what happened on the app's event bus (`activity.happened`,
 * `activity.counted`, `route.answered` and their own domain events), and the activity feature,
 * which implements this and sets it at start-up, writes the entries.
 */
export type { ActivityInput, MinuteCounts } from './events';

/** This app's activity log, set at start-up. */
export const activityHandle = new AppHandle<ActivityLog>('the activity log');

export interface ActivityLog {
  list(query: ActivityQuery): Promise<ActivityEntryDto[]>;
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Entries and per-minute summaries waiting to be written (with the summaries of this minute, at most ACTIVITY_MAX_QUEUED are held). */
  queued(): number;
  /** Entries dropped since start because the queue was full. */
  dropped(): number;
}
