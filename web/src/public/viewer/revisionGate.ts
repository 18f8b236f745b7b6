/** What to do with a pushed delta, given the revision the viewer holds. */
export type DeltaAction = 'apply' | 'drop' | 'refetch';

/**
 * The revision rules of the realtime contract. `seenParts` holds the parts of the current revision
 * already applied; null means the current revision came whole from a REST fetch. Updates
 * `seenParts` when the delta is to be applied; the caller then moves its revision to `revision`.
 */
export class RevisionGate {
  private seenParts: Set<number> | null = null;

  /** The viewer just loaded a full snapshot at some revision. */
  fetched() {
    this.seenParts = null;
  }

  decide(have: number, revision: number, part: number): DeltaAction {
    if (revision < have) return 'drop';
    if (revision === have) {
      if (this.seenParts === null || this.seenParts.has(part)) return 'drop';
      this.seenParts.add(part);
      return 'apply';
    }
    if (revision === have + 1) {
      this.seenParts = new Set([part]);
      return 'apply';
    }
    return 'refetch';
  }
}
