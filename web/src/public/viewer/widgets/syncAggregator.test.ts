import { describe, expect, it } from 'vitest';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import type { RecordDto } from '@common/schemas/records/record';
import { Aggregator, type AggregateSpec } from '@common/widgets/aggregate';
import { applyRemoved, applyUpserted, currentRecords, loadView, resetViewer, useViewerStore } from '../viewerStore';
import { syncAggregator } from './widgetContext';

let revision = 0;
const record = (id: number, status: string, amount: number): RecordDto => ({
  id: `o${id}`, recordId: String(id), data: { status, amount }, keyOrder: ['status', 'amount'], createdAt: '', lastUpdated: `t${++revision}`, revision,
});
const view = (records: RecordDto[]) => ({ dashboard: {}, tabs: [], dataSource: null, records, revision, truncated: false }) as unknown as PublicDashboardResponse;
const delta = { dataSourceId: 'd', total: 0, part: 0, parts: 1 };

describe('widget totals fed by the viewer store', () => {
  it('follow loads, pushed upserts (duplicates and new records included), removals and refetches record by record, equal to a recount', () => {
    const spec: AggregateSpec = { metric: 'sum', groupField: 'status', valueField: 'amount' };
    const aggregator = new Aggregator(spec, () => currentRecords());
    let resets = 0;
    const reset = aggregator.reset.bind(aggregator);
    aggregator.reset = (records) => {
      resets++;
      reset(records);
    };
    let seen: number | null = null;
    const step = () => {
      syncAggregator(aggregator, useViewerStore.getState(), seen);
      seen = useViewerStore.getState().version;
      const recount = new Aggregator(spec);
      recount.reset(currentRecords());
      expect(aggregator.top()).toEqual(recount.top());
      expect(aggregator.size).toBe(currentRecords().length);
    };
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const statuses = ['open', 'closed', 'in progress'];

    resetViewer('dash');
    loadView(view(Array.from({ length: 30 }, (_, i) => record(i, statuses[i % 3], i))));
    step();
    for (let round = 0; round < 200; round++) {
      const kind = rand(10);
      if (kind < 6) {
        const records = Array.from({ length: 1 + rand(4) }, () => record(rand(50), statuses[rand(3)], rand(100)));
        applyUpserted({ ...delta, revision: ++revision, records });
      } else if (kind < 9) {
        applyRemoved({ ...delta, revision: ++revision, recordIds: [String(rand(50)), String(rand(50))], all: false });
      } else {
        // The 30 s refetch: some records changed, some gone, some new.
        loadView(view([...currentRecords().filter(() => rand(4) > 0).map((r) => (rand(3) ? r : record(Number(r.recordId), statuses[rand(3)], rand(100)))), record(50 + rand(10), 'open', 1)]));
      }
      step();
    }
    // Only the first load was a recount; every later change moved single records.
    expect(resets).toBe(1);

    applyRemoved({ ...delta, revision: ++revision, recordIds: [], all: true });
    step();
    expect(aggregator.top()).toEqual([]);
  });

  it('recounts when it missed a version', () => {
    const aggregator = new Aggregator({ metric: 'count' });
    resetViewer('dash');
    loadView(view([record(1, 'open', 1), record(2, 'open', 2)]));
    syncAggregator(aggregator, useViewerStore.getState(), null);
    const seen = useViewerStore.getState().version;
    applyUpserted({ ...delta, revision: ++revision, records: [record(3, 'open', 3)] });
    applyRemoved({ ...delta, revision: ++revision, recordIds: ['1'], all: false });
    syncAggregator(aggregator, useViewerStore.getState(), seen);
    expect(aggregator.value()).toBe(2);
  });
});
