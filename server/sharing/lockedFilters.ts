import type { DataSourceDto } from '@common/schemas/dataSource';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { toNumber } from '@common/widgets/filters';
import { timeOf } from '@common/types/dates';
import { fieldTypeOf } from '@common/types/fieldTyping';

const ORDERING = new Set(['gt', 'gte', 'lt', 'lte']);

/**
 * What is wrong with a share link's locked filters for the dashboard's data source, each with the
 * path of its part (`filters.0.field`): a field the source does not have, a value an ordering
 * comparison cannot read as the field's type (a number, a date). A source with no fields yet
 * (nothing ingested) accepts any field.
 */
export function lockedFilterProblems(filters: WidgetFilter[], source: DataSourceDto | null): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!source) return [{ path: 'filters', message: 'This dashboard has no data source: there is nothing to filter' }];
  const known = new Set([...source.fields, ...Object.keys(source.fieldTypes)]);
  const typing = { fieldTypes: source.fieldTypes, dateOrder: source.dateOrder };
  filters.forEach((f, i) => {
    if (known.size && !known.has(f.field)) {
      problems.push({ path: `filters.${i}.field`, message: `"${f.field}" is not a field of the data source "${source.name}"` });
      return;
    }
    const type = fieldTypeOf(typing, f.field);
    if (!ORDERING.has(f.operator)) return;
    if (type === 'number' && toNumber(f.value) === null) problems.push({ path: `filters.${i}.value`, message: `"${f.field}" is a number field: give a number to compare with` });
    if (type === 'datetime' && Number.isNaN(timeOf(f.value, { dateOrder: typing.dateOrder, epoch: true }))) {
      problems.push({ path: `filters.${i}.value`, message: `"${f.field}" is a date-time field: give a date (e.g. 2024-03-01T00:00:00Z) to compare with` });
    }
  });
  return problems;
}
