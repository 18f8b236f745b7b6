import { Button, Flex, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { EmbeddingDto } from '@common/schemas/sharing/embedding';
import { embedOriginProblem, MAX_EMBED_ORIGINS } from '@common/sharing';
import { api, errorText } from '../../api/client';
import { SECONDARY_TEXT } from '../ui/States';
import { useToast, useToastSubmit } from '../ui/toast';
import { iframeSnippet } from './api';

const path = (dashboardId: string) => `/api/admin/dashboards/${encodeURIComponent(dashboardId)}/embedding`;

/** The sites allowed to show this dashboard's viewer pages in an iframe, and the snippet to paste there. */
export function EmbedOriginsForm({ dashboardId, isPublished }: { dashboardId: string; isPublished: boolean }) {
  const [origins, setOrigins] = useState<string[] | null>(null);
  const [saved, setSaved] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = useToastSubmit();
  const toast = useToast();

  useEffect(() => {
    api.get<EmbeddingDto>(path(dashboardId)).then(
      (e) => {
        setOrigins(e.origins);
        setSaved(e.origins);
      },
      (e) => toast.error('Failed to fetch embedding origins', errorText(e)),
    );
  }, [dashboardId, toast]);

  const change = (next: string[]) => {
    setProblem(next.map(embedOriginProblem).find((p) => p !== null) ?? null);
    setOrigins(next);
  };

  const save = async () => {
    if (!origins || problem) return;
    await submit.run(async () => {
      const e = await api.put<EmbeddingDto>(path(dashboardId), { origins });
      setOrigins(e.origins);
      setSaved(e.origins);
      return e;
    }, {
      success: (e) => ['Embedding origins saved', e.origins.length ? `${e.origins.join(', ')} may embed this dashboard.` : 'No other site may embed this dashboard.'],
      failure: 'Failed to save embedding origins',
    });
  };

  const unchanged = origins !== null && origins.join(' ') === saved.join(' ');
  return (
    <Flex vertical gap={6} data-testid="embed-origins">
      <Typography.Text strong>Allowed embedding origins</Typography.Text>
      <Flex gap={8} wrap>
        <Select
          mode="tags"
          aria-label="Allowed embedding origins"
          style={{ flex: '1 1 320px' }}
          placeholder="None: only this site may embed it (type an origin such as https://intranet.example.com, then Enter)"
          value={origins ?? []}
          loading={origins === null}
          maxCount={MAX_EMBED_ORIGINS}
          status={problem ? 'error' : undefined}
          onChange={change}
          open={false}
          tokenSeparators={[' ', ',']}
        />
        <Button onClick={() => void save()} loading={submit.busy} disabled={origins === null || Boolean(problem) || unchanged}>Save Origins</Button>
      </Flex>
      {problem ? (
        <Typography.Text type="danger">{problem}</Typography.Text>
      ) : (
        isPublished && (
          <Typography.Text style={{ color: SECONDARY_TEXT }} copyable={{ text: iframeSnippet(`${window.location.origin}/dashboards/${dashboardId}`) }}>
            Embed the public page: <Typography.Text code>{iframeSnippet(`${window.location.origin}/dashboards/${dashboardId}`)}</Typography.Text>
          </Typography.Text>
        )
      )}
    </Flex>
  );
}
