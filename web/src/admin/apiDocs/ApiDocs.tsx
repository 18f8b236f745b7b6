import { Alert, Card, Flex, Select, Table, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { sourceKind } from '@common/constants';
import { useDataSources } from '../stores/dataSources';
import { CodeBlock } from './CodeBlock';
import {
  ADMIN_ENDPOINTS, FORMATS, ingestCurl, PUBLIC_ENDPOINTS, sampleBody, SOURCE_ENDPOINTS, shellQuote, type Endpoint,
} from './samples';

const METHOD_COLOR: Record<string, string> = { GET: 'blue', POST: 'green', PATCH: 'orange', DELETE: 'red', PUT: 'gold' };
const AUTH_LABEL = { admin: 'Personal or admin token', ingest: 'Admin token or ingest key', none: 'Public' } as const;

function EndpointTable({ rows, origin }: { rows: Endpoint[]; origin: string }) {
  return (
    <Table<Endpoint>
      size="small"
      pagination={false}
      rowKey={(r) => `${r.method} ${r.path}`}
      dataSource={rows}
      // On phones the table scrolls inside its card instead of widening the page.
      scroll={{ x: 720 }}
      columns={[
        { title: 'Method', dataIndex: 'method', width: 90, render: (m: string) => <Tag color={METHOD_COLOR[m]}>{m}</Tag> },
        { title: 'Path', dataIndex: 'path', render: (p: string) => <Typography.Text code copyable={{ text: origin + p }}>{p}</Typography.Text> },
        { title: 'Auth', dataIndex: 'auth', width: 200, render: (a: Endpoint['auth']) => AUTH_LABEL[a] },
        { title: 'What it does', dataIndex: 'about' },
      ]}
    />
  );
}

/** API Documentation (spec 2.12): ingest formats with samples for this server, endpoints and auth. */
export function ApiDocs() {
  const origin = window.location.origin;
  const all = useDataSources((s) => s.items);
  const sources = useMemo(() => all.filter((d) => sourceKind(d.sourceId) === 'custom'), [all]);
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const sourceId = picked ?? sources[0]?.sourceId ?? 'CSTM_your_source_id';
  const credential = '<token>';

  return (
    <Flex vertical gap={16} data-testid="api-docs">
      <Card title="Ingest data">
        <Typography.Paragraph>
          Send JSON records to <Typography.Text code style={{ wordBreak: 'break-all' }}>POST {origin}/api/data/ingest</Typography.Text>. The format is detected
          automatically. A record is identified by its primary key: the <Typography.Text code>primaryKey</Typography.Text> you name
          (in the body or as <Typography.Text code>?primaryKey=</Typography.Text>), else the source's primary key, else the first field
          of the first record. Ingesting the same key again updates the record.
        </Typography.Paragraph>
        <Flex gap={16} wrap align="center" style={{ marginBottom: 12 }}>
          <Flex align="center" gap={8} style={{ flex: '1 1 260px', minWidth: 0, maxWidth: 520 }}>
            <span style={{ flex: 'none' }}>Data source:</span>
            <Select
              style={{ flex: 1, minWidth: 0 }}
              aria-label="Data source"
              value={sourceId}
              onChange={setPicked}
              options={sources.length ? sources.map((s) => ({ value: s.sourceId, label: `${s.name} (${s.sourceId})` })) : [{ value: sourceId, label: sourceId }]}
            />
          </Flex>
          <span>
            Replace <Typography.Text code>&lt;token&gt;</Typography.Text> with the source's ingest key or a personal API token (My account).
          </span>
        </Flex>
        <Tabs
          items={FORMATS.map((f) => {
            const body = sampleBody(f.key, sourceId);
            return {
              key: f.key,
              label: f.label,
              children: (
                <Flex vertical gap={12}>
                  <Typography.Text type="secondary">{f.about}</Typography.Text>
                  <Typography.Text strong>Request body</Typography.Text>
                  <CodeBlock label={`${f.label} body`} code={JSON.stringify(body, null, 2)} />
                  <Typography.Text strong>cURL</Typography.Text>
                  <CodeBlock label={`${f.label} cURL`} code={ingestCurl(origin, credential, body)} />
                </Flex>
              ),
            };
          })}
        />
      </Card>
      <Card title="Authentication">
        <Alert
          type="info"
          showIcon
          title="Admin endpoints need an Authorization header with a bearer token"
          description={
            <>
              Send <Typography.Text code>Authorization: Bearer &lt;token&gt;</Typography.Text> on every call under
              {' '}<Typography.Text code>/api/admin</Typography.Text> and <Typography.Text code>/api/integrations</Typography.Text>, where the
              token is a personal API token (My account; it acts with your role) or the admin token (ADMIN_TOKEN, for automation and
              recovery). Ingest accepts the admin token or the data source's
              own ingest key (shown on its card right after creation or rotation); an ingest key writes only to its own source. Public
              dashboard endpoints need no token.
            </>
          }
        />
        <div style={{ marginTop: 12 }}>
          <CodeBlock label="admin call" code={`curl ${shellQuote(`${origin}/api/admin/dashboards`)} \\\n  -H ${shellQuote(`Authorization: Bearer ${credential}`)}`} />
        </div>
      </Card>
      <Card title="Data source endpoints"><EndpointTable rows={SOURCE_ENDPOINTS} origin={origin} /></Card>
      <Card title="Public dashboard endpoints"><EndpointTable rows={PUBLIC_ENDPOINTS} origin={origin} /></Card>
      <Card title="Admin dashboard endpoints"><EndpointTable rows={ADMIN_ENDPOINTS} origin={origin} /></Card>
    </Flex>
  );
}
