/** A change is in a snapshot on disk within this long (the promise of the startup line). */
export const SNAPSHOT_WITHIN_MS = 5_000;
/** How long after the first unsaved change a snapshot begins: the rest of SNAPSHOT_WITHIN_MS is for writing it. */
const BEGIN_AFTER_MS = SNAPSHOT_WITHIN_MS - 1_000;
/** After a failed snapshot, the next try. */
const RETRY_MS = SNAPSHOT_WITHIN_MS;

export interface ScheduleStatus {
  /** The first change not yet on disk (null: everything is). */
  unsavedSince: Date | null;
  lastSavedAt: Date | null;
  lastError: string | null;
}

/**
 * When to write a snapshot: BEGIN_AFTER_MS after the first change that no snapshot holds yet —
 * changes keep coming, snapshots keep being written, so none waits longer; nothing changed,
 * nothing written. A change seen while a snapshot is being written may have missed it: it starts
 * the next wait. One snapshot at a time.
 */
export class SnapshotSchedule {
  private seq = 0;
  private savedSeq = 0;
  private firstUnsaved: number | null = null;
  /** While writing: the changes it is meant to hold began then. */
  private writingSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  private lastSavedAt: Date | null = null;
  private lastError: string | null = null;

  constructor(
    private readonly save: () => Promise<void>,
    private readonly onError: (e: unknown, firstOfStreak: boolean) => void,
  ) {}

  /** A write reached the database. */
  changed(): void {
    this.seq++;
    this.firstUnsaved ??= Date.now();
    this.arm();
  }

  status(): ScheduleStatus {
    const since = this.writingSince ?? this.firstUnsaved;
    return { unsavedSince: since === null ? null : new Date(since), lastSavedAt: this.lastSavedAt, lastError: this.lastError };
  }

  /** Stops the timer; the last snapshot is written if anything changed since the one before (a clean stop). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    if (this.seq !== this.savedSeq) await this.run();
    if (this.lastError && this.seq !== this.savedSeq) throw new Error(`the last snapshot could not be written: ${this.lastError}`);
  }

  /** Sets the timer for the next snapshot: BEGIN_AFTER_MS after the first unsaved change, or at `due` (a retry). */
  private arm(due = (this.firstUnsaved ?? Date.now()) + BEGIN_AFTER_MS) {
    if (this.timer || this.running || this.closed || this.seq === this.savedSeq) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, Math.max(0, due - Date.now()));
    this.timer.unref();
  }

  private run(): Promise<void> {
    const upTo = this.seq;
    this.writingSince = this.firstUnsaved ?? Date.now();
    this.firstUnsaved = null;
    this.running = this.save().then(
      () => {
        this.savedSeq = upTo;
        this.lastSavedAt = new Date();
        this.lastError = null;
        this.writingSince = null;
        this.running = null;
        this.arm();
      },
      (e: unknown) => {
        this.onError(e, this.lastError === null);
        this.lastError = e instanceof Error ? e.message : String(e);
        // Still unsaved since the first change this one was meant to hold.
        this.firstUnsaved = Math.min(this.writingSince ?? Date.now(), this.firstUnsaved ?? Infinity);
        this.writingSince = null;
        this.running = null;
        this.arm(Date.now() + RETRY_MS);
      },
    );
    return this.running;
  }
}
