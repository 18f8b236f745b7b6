import mongoose from 'mongoose';
import { CUSTOM_FIELD_PREFIX } from '@common/constants';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { DEFINITION_SCHEMA, DEFINITION_SCHEMA_VERSION, DefinitionBody, type DashboardDefinition, type ImportDashboard } from '@common/schemas/dashboardVersion';
import { ErrorCode } from '@common/schemas/errors';
import { fieldsUsed } from '@common/dashboards/fieldsUsed';
import { parsePath } from '@common/paths';
import type { AppContext, DashboardDoc } from '../../core';
import { ApiError, NotFoundError, ValidationError, dashboardConfiguration, findDataSource, presentDataSource } from '../../core';

/** The answer to a dashboard file the server cannot take: 422 naming why. */
const unusable = (message: string, fields?: { path: string; message: string }[]) => new ApiError(422, ErrorCode.definitionInvalid, message, fields);

/** Whether a source has a field a dashboard reads: a field or path it has seen, a path below one of its fields, or a custom field of its `custom_fields`. */
function fieldCheck(source: DataSourceDto): (field: string) => boolean {
  const known = new Set([...source.fields, ...Object.keys(source.fieldTypes)]);
  return (field) => {
    if (known.has(field)) return true;
    const [head] = parsePath(field);
    if (known.has(head)) return true;
    return field.startsWith(CUSTOM_FIELD_PREFIX) && known.has('custom_fields');
  };
}

/**
 * A dashboard as one file: name, description, configuration and the fields it reads (with their
 * types on this source), no id of this server (widget and tab ids are the dashboard's own).
 */
export async function dashboardDefinition(ctx: AppContext, id: string): Promise<DashboardDefinition> {
  const d = mongoose.isObjectIdOrHexString(id) ? await ctx.models.Dashboard.findById(id).lean<DashboardDoc>() : null;
  if (!d) throw NotFoundError(`Dashboard ${id}`);
  const ds = d.dataSourceId ? await findDataSource(ctx, d.dataSourceId) : null;
  const types = ds ? presentDataSource(ds).fieldTypes : {};
  const configuration = dashboardConfiguration(d);
  const names = [...new Set(fieldsUsed(configuration).map((u) => u.field))];
  return {
    schema: DEFINITION_SCHEMA,
    schemaVersion: DEFINITION_SCHEMA_VERSION,
    name: d.name,
    description: d.description ?? '',
    configuration,
    fields: names.map((name) => ({ name, type: types[name] ?? null })),
  };
}

/**
 * Reads a dashboard file for a new draft on `dataSourceId`: 422 when it is no dashboard file, has
 * a schemaVersion this server does not read, or reads a field the source has not (each named).
 */
export async function readDefinition(ctx: AppContext, input: ImportDashboard): Promise<{ name: string; description: string; configuration: DashboardDto['configuration']; dataSourceId: string }> {
  const file = input.definition as Record<string, unknown>;
  if (file.schema !== DEFINITION_SCHEMA) throw unusable(`This is not a LiveDash dashboard file: its "schema" is ${JSON.stringify(file.schema ?? null)}, not "${DEFINITION_SCHEMA}"`);
  if (file.schemaVersion !== DEFINITION_SCHEMA_VERSION) {
    throw unusable(`This dashboard file has schemaVersion ${JSON.stringify(file.schemaVersion ?? null)}; this server reads schemaVersion ${DEFINITION_SCHEMA_VERSION}. Export it again from a server of this release.`);
  }
  const parsed = DefinitionBody.safeParse(file);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ path: ['definition', ...i.path.map(String)].join('.'), message: i.message }));
    throw unusable(`The dashboard file is not valid: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, fields);
  }
  const ds = await findDataSource(ctx, input.dataSourceId);
  if (!ds) throw ValidationError(`dataSourceId: Data source ${input.dataSourceId} not found`, [{ path: 'dataSourceId', message: `Data source ${input.dataSourceId} not found` }]);
  const source = presentDataSource(ds);
  const has = fieldCheck(source);
  const missing = fieldsUsed(parsed.data.configuration).filter((u) => !has(u.field));
  if (missing.length) {
    const fields = missing.map((u) => ({ path: 'definition.configuration', message: `${u.by} uses the field ${u.field}, which ${source.name} has not` }));
    const more = missing.length > 1 ? ` (and ${missing.length - 1} more: ${fields.slice(1).map((f) => f.message).join('; ')})` : '';
    throw unusable(`${fields[0].message}${more}`, fields);
  }
  const { name, description, configuration } = parsed.data;
  return {
    name: input.name ?? name,
    description,
    dataSourceId: source.id,
    configuration: { keyMappings: configuration.keyMappings, refreshInterval: configuration.refreshInterval, tabs: configuration.tabs ?? [], filters: configuration.filters ?? [] },
  };
}
