import { z } from 'zod';
import { DashboardConfiguration, VersionMessage, type DashboardDto } from './dashboard';
import { FieldType } from './dataSource';

/** The most versions one page of `GET …/versions` lists. */
export const VERSIONS_PAGE_MAX = 100;

/** A version number in a path (`…/versions/7`): digits, read as a number (`007` is version 7). */
export const VersionParam = z
  .string()
  .regex(/^\d{1,9}$/, 'not a version number')
  .transform((s) => String(Number(s)));

const versionNumber = (what: string) => z.coerce.number({ error: `${what} must be a version number` }).int(`${what} must be a version number`).min(0, `${what} must be a version number`);

/** GET /api/admin/dashboards/:id/versions: newest first; `before` a version number (the page after the one that ended there). */
export const VersionsQuery = z
  .object({
    before: versionNumber('before').optional(),
    limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(VERSIONS_PAGE_MAX, `limit must be at most ${VERSIONS_PAGE_MAX}`).default(20),
  })
  .strict();
export type VersionsQuery = z.infer<typeof VersionsQuery>;

/** GET …/versions/:n/diff?to=m (default: the current version). */
export const VersionDiffQuery = z.object({ to: versionNumber('to').optional() }).strict();

/** POST …/versions/:n/restore */
export const RestoreVersion = z.object({ message: VersionMessage.optional() }).strict();

/** Who saved a version: a person, the admin token (automation), or the server itself (demo data, a data source's removal with no request). */
export type VersionAuthor = { kind: 'person'; id: string; name: string } | { kind: 'adminToken' } | { kind: 'system' };

/** One entry of a dashboard's history (the list): what changed, by whom, when. */
export interface DashboardVersionDto {
  dashboardId: string;
  version: number;
  createdAt: string;
  author: VersionAuthor;
  /** What the person saving said, if anything. */
  message: string | null;
  /** What changed, in words, made by the server from the change itself. */
  summary: string;
  /** Set when this version put back an earlier one's content. */
  restoredFrom: number | null;
}

/** The dashboard as one version left it. */
export type VersionContent = Pick<DashboardDto, 'name' | 'description' | 'dataSourceId' | 'isPublished' | 'configuration'>;

/** GET …/versions/:n: the entry and the dashboard as it was. */
export interface DashboardVersionWithContentDto extends DashboardVersionDto {
  dashboard: VersionContent;
}

/** A page of versions; `nextBefore` asks for the next (older) page, null at the first version. */
export interface DashboardVersionsPage {
  versions: DashboardVersionDto[];
  nextBefore: number | null;
}

/** A refused stale save (409 `version_conflict`): the version now current and who saved it. */
export interface VersionConflictBody {
  error: { code: 'version_conflict'; message: string; current: DashboardVersionDto };
}

/** The definition file's name for itself and the version of its layout this server reads and writes. */
export const DEFINITION_SCHEMA = 'livedash.dashboard';
export const DEFINITION_SCHEMA_VERSION = 1;

/** A field the dashboard uses, with its type on the source it was exported from (a hint; the import checks the target source). */
export const DefinitionField = z.object({ name: z.string().min(1).max(500), type: FieldType.nullable().optional() });

/**
 * A dashboard as one file (GET …/definition): its look and what it reads, with no id of the server
 * it came from (widget and tab ids stay: they are the dashboard's own).
 */
export interface DashboardDefinition {
  schema: typeof DEFINITION_SCHEMA;
  schemaVersion: number;
  name: string;
  description: string;
  configuration: DashboardDto['configuration'];
  fields: z.infer<typeof DefinitionField>[];
}

/** The parts of a dashboard file past its schema and schemaVersion, as the import reads them. */
export const DefinitionBody = z.object({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  description: z.string().max(2000, 'description must be at most 2000 characters').default(''),
  configuration: DashboardConfiguration,
  fields: z.array(DefinitionField).max(5000).default([]),
});

/**
 * POST /api/admin/dashboards/import. The definition is read by the server (schema, schemaVersion,
 * configuration, fields against the source): a file it cannot take answers 422 naming why.
 */
export const ImportDashboard = z
  .object({
    definition: z.looseObject({ schema: z.unknown(), schemaVersion: z.unknown() }, { error: 'definition must be the JSON object of a dashboard file' }),
    dataSourceId: z.string({ error: 'Data source is required' }).min(1, 'Data source is required'),
    name: z.string().trim().min(1, 'Name cannot be empty').max(200, 'Name must be at most 200 characters').optional(),
  })
  .strict();
export type ImportDashboard = z.infer<typeof ImportDashboard>;
