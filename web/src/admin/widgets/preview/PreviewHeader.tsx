import { Alert, Badge, Flex, Typography } from 'antd';
import { useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import { orderedRecords } from '../../../public/viewer/recordStore';
import { PREVIEW_MAX, type PreviewRecords } from './previewStore';
import { recordFields } from '../widgetDrafts';

/** "Live preview with 1,200 of 1,200 records of Helpdesk"; while later pages load, or beyond the preview's cap, it says so. */
export function previewSummary(shown: number, total: number, sourceName: string, loadingMore = false): string {
  const base = `Live preview with ${shown.toLocaleString()} of ${total.toLocaleString()} records of ${sourceName}`;
  if (loadingMore) return `${base} (reading the rest…)`;
  return total > shown ? `${base} (the first ${PREVIEW_MAX.toLocaleString()} and those added since)` : base;
}

/** The builder's line about its preview: loading, or how many of the source's records it draws. */
export function PreviewSummary({ preview, sourceName }: { preview: PreviewRecords; sourceName: string }) {
  const status = useStore(preview.store, (s) => s.status);
  const shown = useStore(preview.store, (s) => s.order.length);
  const total = useStore(preview.store, (s) => s.total);
  const live = useStore(preview.store, (s) => s.live);
  const loadingMore = useStore(preview.store, (s) => s.loadingMore);
  return (
    <Flex gap={12} align="center" style={{ marginLeft: 'auto' }}>
      <Typography.Text type="secondary" data-testid="preview-summary">
        {status === 'loading' ? 'Loading the preview…' : previewSummary(shown, Math.max(total, shown), sourceName, loadingMore)}
      </Typography.Text>
      <Badge status={live ? 'processing' : 'default'} text={live ? 'Live' : 'Not live'} data-testid="preview-live" data-live={live} />
    </Flex>
  );
}

/** The preview's fetch failed (what was shown stays). */
export function PreviewError({ preview }: { preview: PreviewRecords }) {
  const error = useStore(preview.store, (s) => s.error);
  return error ? <Alert type="error" showIcon title="Could not load the preview records" description={error} /> : null;
}

/** The fields of the preview's records (data keys and custom fields), for the widget editor's selects. */
export function usePreviewFields(preview: PreviewRecords): string[] {
  const version = useStore(preview.store, (s) => s.version);
  // `version` stands for the records; a field list that reads the same keeps its array.
  const fields = useMemo(() => recordFields(orderedRecords(preview.store.getState())), [preview, version]);
  const kept = useRef(fields);
  if (kept.current.join('\u0000') !== fields.join('\u0000')) kept.current = fields;
  return kept.current;
}
