import { createStore, type StoreApi } from 'zustand';
import type { RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { RawDataResponse, RecordDto } from '@common/schemas/records/record';
import { emptyRecords, recordKeeper, type RecordsState } from '../../../public/viewer/recordStore';
import { RevisionGate } from '../../../public/viewer/revisionGate';

/** Records per page the preview reads (the most /api/data/raw gives at once); it reads every page. */
export const PREVIEW_LIMIT = 1000;
/** The most records the preview holds (as many as the viewer's view holds by default). */
export const PREVIEW_MAX = 100_000;

export type PreviewDelta = { kind: 'upserted'; e: RecordsUpserted } | { kind: 'removed'; e: RecordsRemoved };

export interface PreviewState extends RecordsState {
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  /** Records of the source, as the server last counted them. */
  total: number;
  /** A revision was missed: the records must be fetched again. */
  stale: boolean;
  /** In the source's room: pushed changes arrive. */
  live: boolean;
  /** Later pages are still being read (the first is shown). */
  loadingMore: boolean;
}

/**
 * The widget builder's live preview of one data source: a record store (the viewer's record-keeping,
 * recordStore.ts) loaded from /api/data/raw — the first page, then every further page (`more`), so
 * it counts and charts all of the source's records as the viewer does — and moved by the source's pushed
 * deltas under the viewer's revision rules (revisionGate.ts). Deltas that arrive while a fetch is
 * under way wait for its answer; a gap marks the store `stale` for the caller to fetch again.
 */
export class PreviewRecords {
  readonly store: StoreApi<PreviewState>;
  private readonly keeper;
  private readonly gate = new RevisionGate();
  private fetchingNow = false;
  private buffered: PreviewDelta[] = [];

  constructor(readonly dataSourceId: string) {
    this.store = createStore<PreviewState>(() => ({ ...emptyRecords(), version: 0, status: 'loading', error: null, total: 0, stale: false, live: false, loadingMore: false }));
    this.keeper = recordKeeper(this.store);
  }

  /** Joined the source's room (true) or lost the connection (false). */
  setLive(live: boolean) {
    if (this.store.getState().live !== live) this.store.setState({ live });
  }

  /** A fetch of the first page starts: deltas wait for its answer. */
  fetching() {
    this.fetchingNow = true;
  }

  /** The fetch's answer: the records at its revision, then the deltas that came meanwhile. */
  loaded(raw: Pick<RawDataResponse, 'records' | 'total' | 'revision'>) {
    this.fetchingNow = false;
    this.keeper.load(raw.records, raw.revision, { status: 'ready', error: null, total: raw.total, stale: false, loadingMore: raw.total > raw.records.length });
    this.gate.fetched();
    this.flush();
  }

  /**
   * A later page: its records are added where the preview does not hold a newer version (a pushed
   * change may have come between the pages); `last` says the preview has every page now.
   */
  more(records: RecordDto[], last: boolean) {
    const s = this.store.getState();
    const fresh = records.filter((r) => {
      const held = s.records.get(r.recordId);
      return !held || held.revision < r.revision;
    });
    if (fresh.length) this.keeper.upserted({ dataSourceId: this.dataSourceId, revision: s.revision, total: s.total, part: 0, parts: 1, records: fresh }, { loadingMore: !last });
    else if (s.loadingMore !== !last) this.store.setState({ loadingMore: !last });
  }

  /** The fetch failed: keep what is shown (an error state only when nothing is). */
  failed(message: string) {
    this.fetchingNow = false;
    const { status } = this.store.getState();
    this.store.setState(status === 'ready' ? { error: message } : { status: 'error', error: message });
    this.flush();
  }

  /** A pushed delta: applied when it follows what the store holds; a gap marks the store stale. */
  receive(d: PreviewDelta): 'applied' | 'dropped' | 'waiting' | 'stale' {
    if (d.e.dataSourceId !== this.dataSourceId) return 'dropped';
    if (this.fetchingNow) {
      this.buffered.push(d);
      return 'waiting';
    }
    const s = this.store.getState();
    // Nothing loaded yet: the coming fetch brings this change.
    if (s.status !== 'ready') return 'dropped';
    const action = this.gate.decide(s.revision, d.e.revision, d.e.part);
    if (action === 'refetch') {
      if (!s.stale) this.store.setState({ stale: true });
      return 'stale';
    }
    if (action === 'drop') return 'dropped';
    if (d.kind === 'upserted') this.keeper.upserted(d.e, { total: d.e.total });
    else this.keeper.removed(d.e, { total: d.e.total });
    return 'applied';
  }

  private flush() {
    const pending = this.buffered;
    this.buffered = [];
    pending.forEach((d) => this.receive(d));
  }
}
