import { Alert, Button, Flex, Input, Popconfirm, Tabs, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { CreatedEmbedSecretDto, EmbeddingDto } from '@common/schemas/sharing/embedding';
import { api, errorText } from '../../api/client';
import { CopyButton } from '../ui/CopyButton';
import { SECONDARY_TEXT } from '../ui/States';
import { useToast, useToastSubmit } from '../ui/toast';
import { embedSamples } from './embedSamples';

const path = (dashboardId: string) => `/api/admin/dashboards/${encodeURIComponent(dashboardId)}/embedding`;

/** A code block with a copy button. */
function Sample({ code, what, testId }: { code: string; what: string; testId: string }) {
  return (
    <div style={{ position: 'relative' }}>
      <pre data-testid={testId} style={{ margin: 0, padding: '10px 40px 10px 12px', background: 'rgba(0,0,0,0.04)', borderRadius: 6, fontSize: 12, overflowX: 'auto', whiteSpace: 'pre' }}>{code}</pre>
      <div style={{ position: 'absolute', top: 4, right: 4 }}>
        <CopyButton text={code} what={what} label={`Copy the ${what.toLowerCase()}`} />
      </div>
    </div>
  );
}

/**
 * Signed embedding: the dashboard's secret (made or rotated here, shown once), and how the host's
 * server signs a token per customer with it — Node (jose), Python (PyJWT), a shell with openssl —
 * and the iframe that shows it. Each token shows only the rows its filters allow, live.
 */
export function SignedEmbedPanel({ dashboardId, dashboardName }: { dashboardId: string; dashboardName: string }) {
  const [embedding, setEmbedding] = useState<EmbeddingDto | null>(null);
  // The secret as just made: in this dialog's memory only, never fetched again.
  const [shown, setShown] = useState<string | null>(null);
  const [field, setField] = useState('customer_id');
  const toast = useToast();
  const submit = useToastSubmit();

  useEffect(() => {
    api.get<EmbeddingDto>(path(dashboardId)).then(setEmbedding, (e) => toast.error('Failed to fetch the embedding secret', errorText(e)));
  }, [dashboardId, toast]);

  const make = () =>
    submit.run(async () => {
      const made = await api.post<CreatedEmbedSecretDto>(`${path(dashboardId)}/secret`);
      setEmbedding(made.embedding);
      setShown(made.secret);
      return made;
    }, {
      success: (made) => (made.embedding.secret?.rotated ? ['Secret rotated', 'Tokens signed with the old secret no longer open the dashboard.'] : ['Secret created', 'Copy it now: it is shown only once.']),
      failure: 'Failed to make the embedding secret',
    });

  const samples = useMemo(() => embedSamples({ baseUrl: window.location.origin, dashboardId, field: field.trim() || 'customer_id', dashboardName }), [dashboardId, field, dashboardName]);
  const secret = embedding?.secret ?? null;

  return (
    <Flex vertical gap={10} data-testid="signed-embedding">
      <Typography.Text strong>Signed embedding</Typography.Text>
      <Typography.Text style={{ color: SECONDARY_TEXT }}>
        Your application signs a short-lived token (HS256, at most 24 hours) for each of its customers with this dashboard's secret, and shows the dashboard in an iframe: each customer sees only the rows the token's filters allow, live — published or not. Its site's origin must be allowed above.
      </Typography.Text>
      <Flex gap={8} align="center" wrap>
        {embedding === null ? (
          <Typography.Text style={{ color: SECONDARY_TEXT }}>Loading…</Typography.Text>
        ) : secret ? (
          <Typography.Text data-testid="embed-secret-status">
            Secret <Typography.Text code>{secret.hint}…</Typography.Text> {secret.rotated ? 'rotated' : 'made'} {new Date(secret.createdAt).toLocaleString()} by {secret.createdBy}
          </Typography.Text>
        ) : (
          <Typography.Text data-testid="embed-secret-status">No secret yet: no signed token opens this dashboard.</Typography.Text>
        )}
        {embedding !== null && !secret && <Button type="primary" onClick={() => void make()} loading={submit.busy}>Create Secret</Button>}
        {secret && (
          <Popconfirm
            title="Rotate the embedding secret?"
            description="Every token signed with the current secret stops at once, and embedded dashboards open now close. Your application must sign with the new one."
            okText="Rotate"
            okButtonProps={{ danger: true }}
            onConfirm={() => make()}
          >
            <Button danger loading={submit.busy}>Rotate Secret</Button>
          </Popconfirm>
        )}
      </Flex>
      {secret && !secret.readable && (
        <Alert type="warning" showIcon title="This server cannot read the secret any more" description="It was sealed under another server key (SERVER_SECRET was set or changed since it was made), so every token is refused. Rotate it, and keep SERVER_SECRET the same on every process." />
      )}
      {shown && (
        <Alert
          type="success"
          showIcon
          closable={{ onClose: () => setShown(null) }}
          data-testid="new-embed-secret"
          title="Copy the secret now: it is shown only once"
          description={
            <Flex vertical gap={4}>
              <Flex gap={4} align="center">
                <Typography.Text code data-testid="embed-secret" style={{ wordBreak: 'break-all' }}>{shown}</Typography.Text>
                <CopyButton text={shown} what="Embedding secret" label="Copy the embedding secret" />
              </Flex>
              <Typography.Text style={{ color: SECONDARY_TEXT }}>Keep it on your server (as LIVEDASH_EMBED_SECRET below), never in a page.</Typography.Text>
            </Flex>
          }
        />
      )}
      <Flex gap={8} align="center" wrap>
        <Typography.Text>The field that tells your customers apart</Typography.Text>
        <Input aria-label="Customer field" value={field} onChange={(e) => setField(e.target.value)} style={{ width: 220 }} />
      </Flex>
      <Tabs
        size="small"
        items={[
          { key: 'node', label: 'Node (jose)', children: <Sample code={samples.node} what="Node sample" testId="embed-sample-node" /> },
          { key: 'python', label: 'Python (PyJWT)', children: <Sample code={samples.python} what="Python sample" testId="embed-sample-python" /> },
          { key: 'shell', label: 'Shell (openssl)', children: <Sample code={samples.shell} what="Shell sample" testId="embed-sample-shell" /> },
        ]}
      />
      <Typography.Text style={{ color: SECONDARY_TEXT }}>Then show it in your page:</Typography.Text>
      <Sample code={samples.iframe} what="Iframe tag" testId="embed-iframe" />
      <Typography.Text style={{ color: SECONDARY_TEXT }}>
        Claims: <Typography.Text code>dashboard</Typography.Text>, <Typography.Text code>exp</Typography.Text> (required), <Typography.Text code>filters</Typography.Text> (all applied; a URL filter only narrows them), <Typography.Text code>allowCsv</Typography.Text>, <Typography.Text code>theme</Typography.Text> (light or dark), <Typography.Text code>tab</Typography.Text> (the tab shown first), <Typography.Text code>nbf</Typography.Text>, <Typography.Text code>iat</Typography.Text>, <Typography.Text code>sub</Typography.Text>. Any other algorithm than HS256, or a token past its exp, is refused.
      </Typography.Text>
    </Flex>
  );
}
