import { Alert, Card, Flex, Input, Select, Switch, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { sourceKind } from '@common/constants';
import { useDataSources, useFreshIngestKeys } from '../stores/dataSources';
import { DocsAuthentication } from './DocsAuthentication';
import { DocsExamples } from './DocsExamples';
import { DocsGuide } from './DocsGuide';
import { EndpointsTable } from './EndpointsTable';
import { LOCAL_ORIGIN, type SampleSource } from './samples';
import { useOpenApi, useSampleRecord } from './useDocsData';

const TOKEN_PLACEHOLDER = '<token>';
const KEY_PLACEHOLDER = '<ingest key>';

/** A switch whose label, not only the switch, turns it on and off. */
function LabelledSwitch({ id, checked, onChange, children }: { id: string; checked: boolean; onChange(v: boolean): void; children: React.ReactNode }) {
  return (
    <Flex gap={8} align="center">
      <Switch id={id} size="small" checked={checked} onChange={onChange} />
      <label htmlFor={id} style={{ cursor: 'pointer' }}>{children}</label>
    </Flex>
  );
}

/**
 * API Documentation with the sidebar's four sections: Documentation (the guide),
 * Examples (by task), Endpoints (generated from the server's OpenAPI document) and Authentication.
 * Every sample is built from the chosen data source (`?source=<id>`, set by "How To Ingest Data").
 */
export function ApiDocs({ section, source, onSource }: { section: string; source: string | null; onSource(id: string): void }) {
  const { doc, error } = useOpenApi();
  const origin = doc?.servers?.[0]?.url ?? LOCAL_ORIGIN;
  const all = useDataSources((s) => s.items);
  const sources = useMemo(() => all.filter((d) => sourceKind(d.sourceId) === 'custom'), [all]);
  const ds = sources.find((d) => d.id === source || d.sourceId === source) ?? sources[0];
  const freshKey = useFreshIngestKeys((s) => (ds ? s.keys[ds.id] : undefined));
  // The console keeps no token (it signs in with a cookie): a pasted token lives in this page only.
  const [token, setToken] = useState('');
  const [useKey, setUseKey] = useState(false);
  const sample = useSampleRecord(ds);

  const credential = useKey && freshKey ? freshKey : token.trim() || TOKEN_PLACEHOLDER;
  const s: SampleSource = {
    origin,
    sourceId: ds?.sourceId ?? 'CSTM_your_source_id',
    primaryKey: ds?.primaryKey ?? null,
    appendOnly: ds?.appendOnly ?? false,
    record: sample.record,
    isPlaceholder: sample.isPlaceholder,
    credential,
  };
  const ingestKey = useKey && freshKey ? freshKey : KEY_PLACEHOLDER;

  const sourceBar = (
    <Card size="small" data-testid="docs-source-bar">
      <Flex gap={16} wrap align="center">
        <Flex align="center" gap={8} style={{ flex: '1 1 260px', minWidth: 0, maxWidth: 520 }}>
          <span style={{ flex: 'none' }}>Data source:</span>
          <Select
            style={{ flex: 1, minWidth: 0 }}
            aria-label="Data source"
            value={ds?.id ?? 'none'}
            onChange={onSource}
            options={sources.length ? sources.map((d) => ({ value: d.id, label: `${d.name} (${d.sourceId})` })) : [{ value: 'none', label: 'No custom data source yet' }]}
          />
        </Flex>
        <Flex align="center" gap={8} style={{ flex: '1 1 260px', minWidth: 0, maxWidth: 420 }}>
          <label htmlFor="docs-token" style={{ flex: 'none' }}>Fill in my token:</label>
          <Input.Password
            id="docs-token"
            size="small"
            autoComplete="off"
            placeholder={`a personal API token (My account), else ${TOKEN_PLACEHOLDER}`}
            value={token}
            onChange={(e) => { setToken(e.target.value); if (e.target.value) setUseKey(false); }}
          />
        </Flex>
        <LabelledSwitch id="docs-use-key" checked={useKey} onChange={setUseKey}>
          Use this source&apos;s ingest key
        </LabelledSwitch>
      </Flex>
      {useKey && !freshKey && (
        <Alert
          style={{ marginTop: 12 }}
          type="info"
          showIcon
          data-testid="no-fresh-key"
          title="The full ingest key is shown only right after the source is created or its key is rotated"
          description={`Rotate the key on the source's card (Data Sources) and come back: the samples then carry it. Until then they show ${KEY_PLACEHOLDER}.`}
        />
      )}
    </Card>
  );

  let body: React.ReactNode;
  if (section === 'endpoints') {
    body = (
      <Card title="Endpoints">
        <Typography.Paragraph type="secondary">
          Generated from the server&apos;s own routes (<Typography.Text code>GET /api/openapi.json</Typography.Text>, an OpenAPI 3.1 document): the audience is what each
          route&apos;s guard enforces, the body what its validator checks.
        </Typography.Paragraph>
        <EndpointsTable doc={doc} error={error} origin={origin} />
      </Card>
    );
  } else if (section === 'authentication') body = <DocsAuthentication s={s} ingestKey={ingestKey} />;
  else if (section === 'examples') body = <DocsExamples s={s} ingestKey={ingestKey} />;
  else body = <DocsGuide s={s} doc={doc} error={error} />;

  return (
    <Flex vertical gap={16} data-testid="api-docs" data-section={section === 'endpoints' || section === 'authentication' || section === 'examples' ? section : 'documentation'}>
      {section !== 'endpoints' && sourceBar}
      {body}
    </Flex>
  );
}
