import { OTHER_GROUP } from '@common/widgets/charts/groups';
import type { DrawnData } from './chartOptions';

const many = (n: number, one: string, more: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : more}`;

/** What a chart combined or left out: it never folds groups into "Other" or drops series without saying how many. */
export function chartNotes(data: DrawnData): string[] {
  const notes: string[] = [];
  if (data.type === 'scatter') {
    if (data.total > data.drawn) notes.push(`The newest ${many(data.drawn, 'point', 'points')} of ${data.total.toLocaleString('en-US')}: a scatter draws at most ${data.drawn.toLocaleString('en-US')}.`);
    if (data.leftSeries > 0) notes.push(`"${OTHER_GROUP}" combines ${many(data.leftSeries, 'smaller series', 'smaller series')}.`);
    return notes;
  }
  if (data.type === 'line' && data.axis === 'number' && data.left) notes.push(`The lowest ${many(data.xs.length, 'value', 'values')} of ${(data.xs.length + data.left).toLocaleString('en-US')}: a line draws at most ${data.xs.length}; group the values into ranges.`);
  if (data.type === 'bar' && data.bins?.left) notes.push(`The lowest ${data.rows.length} ranges of ${(data.rows.length + data.bins.left).toLocaleString('en-US')}: pick a wider range.`);
  const other = data.type === 'line' ? undefined : data.rows.find((r) => r.key === OTHER_GROUP && r.others);
  if (other?.others) {
    notes.push(`"${OTHER_GROUP}" combines ${many(other.others, 'group', 'groups')}${data.type === 'bar' ? ': a line chart, or more bars, shows them all' : ''}.`);
  }
  const split = data.type === 'line' ? data : data.split;
  if (split && split.leftSeries > 0) {
    notes.push(split.omitted ? `${many(split.leftSeries, 'smaller series is', 'smaller series are')} left out.` : `"${OTHER_GROUP}" combines ${many(split.leftSeries, 'smaller series', 'smaller series')}.`);
  }
  return notes;
}

export function ChartNotes({ data }: { data: DrawnData }) {
  const notes = chartNotes(data);
  if (!notes.length) return null;
  return <span className="lv-secondary" data-testid="chart-notes" style={{ fontSize: 12 }}>{notes.join(' ')}</span>;
}
