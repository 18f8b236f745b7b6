import { Alert, Button, Card, Flex, Tabs, Typography } from 'antd';
import { navigateAdmin } from '../shell/nav';
import { CodeBlock } from './CodeBlock';
import { EndpointsTable } from './EndpointsTable';
import { FORMATS, ingestCurl, sampleBody, shellQuote, sourceUrl, type SampleSource } from './samples';
import type { OpenApiDocument } from './useDocsData';

/** Documentation: the ingest guide (four formats), the source's own URL, the auth note and the endpoints. */
export function DocsGuide({ s, doc, error }: { s: SampleSource; doc: OpenApiDocument | null; error: string | null }) {
  const firstField = Object.keys(s.record)[0];
  return (
    <>
      <Card title="Ingest data">
        <Typography.Paragraph>
          Send JSON records to <Typography.Text code style={{ wordBreak: 'break-all' }}>POST {s.origin}/api/data/ingest</Typography.Text>. The format is detected
          automatically. A record is identified by its primary key: the source&apos;s, else the <Typography.Text code>primaryKey</Typography.Text> you
          name (in the body or as <Typography.Text code>?primaryKey=</Typography.Text>) while the source is empty, else the first field of
          the first record when every record has it and no two share it. Ingesting the same key again updates the record
          (<Typography.Text code>?mode=merge</Typography.Text> updates only the fields sent).
        </Typography.Paragraph>
        {(s.isPlaceholder || !s.primaryKey) && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="sample-note"
            title={s.isPlaceholder ? 'This source has no records yet: the sample fields are placeholders — send your own' : `This source's records are shown with their own fields`}
            description={
              s.appendOnly ? (
                'The source is append-only: every record is kept as it came, under a server id, with no primary key.'
              ) : !s.primaryKey && (
                <>
                  The source has no primary key yet: its first ingest here makes the first field of the first record
                  {firstField && <> (<Typography.Text code>{firstField}</Typography.Text> in the sample)</>} its key for good — when every record has it and
                  no two share it (else the ingest is refused, naming the duplicates). To keep every record as it comes, send to the source&apos;s own
                  URL instead (below).
                </>
              )
            }
          />
        )}
        <Tabs
          items={FORMATS.map((f) => {
            const body = sampleBody(f.key, s);
            return {
              key: f.key,
              label: f.label,
              children: (
                <Flex vertical gap={12}>
                  <Typography.Text type="secondary">{f.about}</Typography.Text>
                  <Typography.Text strong>Request body</Typography.Text>
                  <CodeBlock label={`${f.label} body`} code={JSON.stringify(body, null, 2)} />
                  <Typography.Text strong>cURL</Typography.Text>
                  <CodeBlock label={`${f.label} cURL`} code={ingestCurl(s.origin, s.credential, body)} />
                </Flex>
              ),
            };
          })}
        />
      </Card>
      <Card title="The source's own URL">
        <Typography.Paragraph>
          Any client can also send to the data source&apos;s own URL, with no <Typography.Text code>sourceId</Typography.Text> in the body: one JSON object, a JSON
          array, NDJSON (<Typography.Text code>application/x-ndjson</Typography.Text>) or CSV (<Typography.Text code>text/csv</Typography.Text>). A source without a
          primary key keeps every record (append-only); <Typography.Text code>mode=merge</Typography.Text> updates only the fields sent.
        </Typography.Paragraph>
        <CodeBlock label="source URL" code={sourceUrl(s)} />
        <Button style={{ marginTop: 12 }} onClick={() => navigateAdmin('api-docs', 'examples')}>Examples by task</Button>
      </Card>
      <Card title="Authentication">
        <Alert
          type="info"
          showIcon
          title="Admin endpoints need an Authorization header with a bearer token"
          description={
            <>
              Send <Typography.Text code>Authorization: Bearer &lt;token&gt;</Typography.Text> on every call under
              {' '}<Typography.Text code>/api/admin</Typography.Text>, <Typography.Text code>/api/data/sources</Typography.Text>, <Typography.Text code>/api/data/raw</Typography.Text> and
              {' '}<Typography.Text code>/api/integrations</Typography.Text>, where the token is the admin token (ADMIN_TOKEN, printed by the server at start). Ingest
              accepts the admin token or the data source&apos;s own ingest key; an ingest key writes only to its own source. Public dashboard endpoints need no token.
            </>
          }
        />
        <div style={{ marginTop: 12 }}>
          <CodeBlock label="admin call" code={`curl ${shellQuote(`${s.origin}/api/admin/dashboards`)} \\\n  -H ${shellQuote(`Authorization: Bearer ${s.credential}`)}`} />
        </div>
      </Card>
      <Card title="Data source endpoints"><EndpointsTable doc={doc} error={error} origin={s.origin} groups={['Data sources and ingest']} /></Card>
      <Card title="Dashboard endpoints"><EndpointsTable doc={doc} error={error} origin={s.origin} groups={['Dashboards']} /></Card>
    </>
  );
}
