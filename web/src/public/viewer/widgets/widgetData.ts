import type { ChartConfigs, ChartWidgetType } from '@common/schemas/widgets/widget';
import { binsOf, binWidthOf, chartSpec, specTyping, widgetNumbers, type WidgetNumbers } from '@common/widgets/drawn/widgetData';
import { scatterPoints } from '@common/widgets/charts/scatter';
import { useMemo } from 'react';
import { useAggregator } from './widgetTotals';
import { useFeedVersion, useWidgetEnv } from './widgetContext';

// The numbers and their words are common/widgets' (a report drawn on the server reads the same).
export { parseChartWidget, type Series } from '@common/widgets/drawn/widgetData';
export { intervalLabel, metricLabel, seriesSpansYears, widgetTable } from '@common/widgets/drawn/widgetText';

/** A chart widget's numbers; `counting` while the first count of a large store is under way. */
export type WidgetData = { counting: boolean } & WidgetNumbers;

/** The live aggregated numbers of a chart widget (recomputed record by record as the feed changes, and as a relative range slides). */
export function useWidgetData(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType]): WidgetData {
  const { typing, timeField, feed } = useWidgetEnv();
  const typed = specTyping(typing, config);
  // A scatter draws records, not totals: it reads the feed's records again on each change (at most its cap of points drawn).
  const version = useFeedVersion();
  // Automatic ranges follow the values' span: read from the records when they change (a new width counts again).
  const bins = binsOf(type, config);
  const binWidth = useMemo(() => binWidthOf(type, config, () => feed.get().records.values()), [bins?.bins, bins?.field, feed, version]);
  const { aggregator, counting } = useAggregator(chartSpec(type, config, typed, timeField, binWidth));
  const scatter = useMemo(
    () => (type === 'scatter' ? scatterPoints(feed.get().records.values(), config as ChartConfigs['scatter'], typed) : null),
    // The configuration by content, and the feed's version: it says when the records changed.
    [type, JSON.stringify(config), JSON.stringify(typed), feed, version],
  );
  return { counting, ...widgetNumbers(type, config, aggregator, binWidth, scatter) };
}
