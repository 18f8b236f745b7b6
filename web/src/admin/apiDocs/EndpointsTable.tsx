import { Alert, Skeleton, Table, Tag, Typography } from 'antd';
import type { OpenApiDocument, OpenApiOperation } from './useDocsData';

const METHOD_COLOR: Record<string, string> = { GET: 'blue', POST: 'green', PATCH: 'orange', DELETE: 'red', PUT: 'gold' };
/** Who may call, by the route guard's audience (a signed-in role: session, personal API token, or the admin token as an admin). */
export const AUDIENCE_LABEL = {
  admin: 'Admin (or admin token)', editor: 'Editor or admin', viewer: 'Any signed-in role', ingest: 'Admin token or ingest key', embed: 'Signed embed token', public: 'Public',
} as const;

export interface EndpointRow {
  method: string;
  path: string;
  audience: keyof typeof AUDIENCE_LABEL | null;
  summary: string;
  body: string;
  answer: string;
  group: string;
}

type Schema = { properties?: Record<string, unknown>; required?: string[] };

/** The body in a line: its fields (optional ones with "?"), or its description, or the query parameters. */
function bodyText(op: OpenApiOperation): string {
  const schema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  if (schema?.properties && Object.keys(schema.properties).length) {
    const required = new Set(schema.required ?? []);
    return `{${Object.keys(schema.properties).map((k) => (required.has(k) ? k : `${k}?`)).join(', ')}}`;
  }
  if (op.requestBody?.description) return op.requestBody.description;
  const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  return query.length ? `query: ${query.join(', ')}` : '—';
}

/** Which part of the product a path belongs to, for the table's groups. */
function groupOf(path: string): string {
  if (/^\/api\/(data\/|admin\/data-sources)/.test(path)) return 'Data sources and ingest';
  if (/links|\/share\/|\/embed\/|embedding/.test(path)) return 'Share links and embedding';
  if (/^\/api\/(dashboards|admin\/dashboards)/.test(path)) return 'Dashboards';
  if (/^\/api\/admin\/(analytics|activity)/.test(path)) return 'Analytics and activity';
  if (path.startsWith('/api/integrations')) return 'Integrations';
  return 'Server';
}

export const GROUP_ORDER = ['Data sources and ingest', 'Dashboards', 'Share links and embedding', 'Analytics and activity', 'Integrations', 'Server'];

/** Every endpoint of the OpenAPI document, one row each, in the groups' order. */
export function endpointRows(doc: OpenApiDocument): EndpointRow[] {
  const rows = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const success = Object.entries(op.responses).find(([code]) => code.startsWith('2'));
      return {
        method: method.toUpperCase(),
        path,
        audience: op['x-audience'] ?? null,
        summary: op.summary ?? '',
        body: bodyText(op),
        answer: success ? `${success[0]}: ${success[1].description}` : '',
        group: groupOf(path),
      };
    }),
  );
  return rows.sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group));
}

/** The endpoints table, generated from GET /api/openapi.json (so it cannot drift from the routes). */
export function EndpointsTable({ doc, error, origin, groups }: { doc: OpenApiDocument | null; error: string | null; origin: string; groups?: string[] }) {
  if (error) return <Alert type="error" showIcon title="Failed to load the endpoint list" description={error} />;
  if (!doc) return <Skeleton active />;
  const rows = endpointRows(doc).filter((r) => !groups || groups.includes(r.group));
  return (
    <Table<EndpointRow>
      size="small"
      pagination={false}
      data-testid="endpoints-table"
      rowKey={(r) => `${r.method} ${r.path}`}
      dataSource={rows}
      // On phones the table scrolls inside its card instead of widening the page.
      scroll={{ x: 1150 }}
      columns={[
        { title: 'Method', dataIndex: 'method', width: 90, render: (m: string) => <Tag color={METHOD_COLOR[m]}>{m}</Tag> },
        { title: 'Path', dataIndex: 'path', width: 270, render: (p: string) => <Typography.Text code copyable={{ text: origin + p }} style={{ wordBreak: 'break-all' }}>{p}</Typography.Text> },
        { title: 'Audience', dataIndex: 'audience', width: 160, render: (a: EndpointRow['audience']) => (a ? AUDIENCE_LABEL[a] : '—') },
        { title: 'What it does', dataIndex: 'summary' },
        { title: 'Body', dataIndex: 'body', width: 170, render: (b: string) => <Typography.Text type="secondary" style={{ fontSize: 12 }}>{b}</Typography.Text> },
        { title: 'Answer', dataIndex: 'answer', width: 170, render: (a: string) => <Typography.Text type="secondary" style={{ fontSize: 12 }}>{a}</Typography.Text> },
      ]}
    />
  );
}
