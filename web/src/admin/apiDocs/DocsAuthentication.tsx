import { Card, Flex, Table, Typography } from 'antd';
import { CodeBlock } from './CodeBlock';
import { shellQuote, sourceUrl, type SampleSource } from './samples';

const code = (t: string) => <Typography.Text code>{t}</Typography.Text>;

interface Credential {
  key: string;
  credential: string;
  how: React.ReactNode;
  may: string;
}

const CREDENTIALS: Credential[] = [
  {
    key: 'personal',
    credential: 'Personal API token',
    how: <>{code('Authorization: Bearer <token>')} (created under My account, shown once)</>,
    may: "What its owner's role may: a viewer reads dashboards, an editor also changes them and reads data sources, an admin everything (an admin's token also ingests into any source).",
  },
  {
    key: 'admin',
    credential: 'Admin token',
    how: <>{code('Authorization: Bearer <token>')} (ADMIN_TOKEN, printed by the server at start; off with ADMIN_TOKEN_DISABLED)</>,
    may: 'Everything, as an admin: every /api/admin and /api/integrations route, the console reads (/api/data/sources, /api/data/raw), ingest into any source. For automation and recovery.',
  },
  {
    key: 'ingest-header',
    credential: "A data source's ingest key, in a header",
    how: <>{code('Authorization: Bearer <ingest key>')} (or {code('X-Ingest-Key')})</>,
    may: 'Write to its own data source only: ingest, and on the source URL merge, replace and delete its records. Nothing else, no reads.',
  },
  {
    key: 'ingest-url',
    credential: "A data source's ingest key, in the URL",
    how: <>{code('?key=<ingest key>')} on the source&apos;s own URL only</>,
    may: 'The same as in a header. For senders that can only be given a URL (webhooks); prefer the header wherever you can: URLs end up in logs and histories.',
  },
  {
    key: 'share',
    credential: 'Share link',
    how: <>{code('/s/<token>')} in a browser, {code('GET /api/share/<token>')} for its data</>,
    may: 'Read one dashboard (published or draft) live, and its CSV when the link allows it, until the link is revoked or expires.',
  },
  {
    key: 'public',
    credential: 'None',
    how: 'No credential',
    may: 'Published dashboards (/api/dashboards, their view and CSV), /api/health and this API\'s OpenAPI document.',
  },
];

/** Authentication: each credential, how to send it and what it may do; rate limits. */
export function DocsAuthentication({ s, ingestKey }: { s: SampleSource; ingestKey: string }) {
  return (
    <>
      <Card title="Authentication">
        <Table<Credential>
          size="small"
          pagination={false}
          rowKey="key"
          dataSource={CREDENTIALS}
          scroll={{ x: 720 }}
          columns={[
            { title: 'Credential', dataIndex: 'credential', width: 200 },
            { title: 'How to send it', dataIndex: 'how', width: 300 },
            { title: 'What it may do', dataIndex: 'may' },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          An ingest key is shown in full only when its source is created or the key is rotated (on the source&apos;s card); rotating it stops the old key at once.
          Share links are made and revoked under Published Dashboards › Permissions.
        </Typography.Paragraph>
      </Card>
      <Card title="With this source">
        <Flex vertical gap={12}>
          <CodeBlock label="admin token" code={`curl ${shellQuote(`${s.origin}/api/data/raw?dataSourceId=${s.sourceId}&limit=10`)} \\\n  -H ${shellQuote(`Authorization: Bearer ${s.credential}`)}`} />
          <CodeBlock label="ingest key in the header" code={`curl -X POST ${shellQuote(sourceUrl(s))} \\\n  -H ${shellQuote(`Authorization: Bearer ${ingestKey}`)} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuote(JSON.stringify(s.record))}`} />
          <CodeBlock label="ingest key in the URL" code={`curl -X POST ${shellQuote(`${sourceUrl(s)}?key=${ingestKey}`)} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuote(JSON.stringify(s.record))}`} />
        </Flex>
      </Card>
      <Card title="Rate limits">
        <Typography.Paragraph>
          A failed credential (admin token, personal token or ingest key): 20 attempts per 15 minutes per address, counted per credential — a stale key
          blocks only itself, while 20 different wrong ones block the address. Ingest: 1,000 requests per 10 seconds per
          credential and per data source (100 a second sustained, with bursts). OAuth setup: 30 per 10 minutes per address. Over a limit the answer is 429 with {code('Retry-After')} and {code('RateLimit-*')} headers and an error
          code {code('rate_limited')}. (Defaults; the server&apos;s RATE_LIMIT_* settings change them.)
        </Typography.Paragraph>
        <Typography.Paragraph>
          Retries: send {code('Idempotency-Key: <unique id>')} with an ingest POST; the same key on the same source within 24 hours answers the first result
          again ({code('Idempotent-Replayed: true')}) and writes nothing.
        </Typography.Paragraph>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          Errors are JSON {code('{"error":{"code","message","fields?"}}')}; match them by {code('code')}, never by the message.
        </Typography.Paragraph>
      </Card>
    </>
  );
}
