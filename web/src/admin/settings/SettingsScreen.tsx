import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Form, Input, List, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { HOST_PORT, type SettingsDto } from '@common/schemas/settings';
import { api, errorText } from '../../api/client';
import { useToastSubmit } from '../ui/toast';
import { LoadError, SECONDARY_TEXT } from '../ui/States';
import { useOutboundHostDraft } from '../stores/outboundHostDraft';

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Why a typed host:port cannot be added, or null. */
function problemOf(typed: string, hosts: string[], fromEnvironment: string[]): string | null {
  const v = typed.trim().toLowerCase();
  if (!v) return null;
  if (/^[a-z]+:\/\//.test(v)) return 'Write the host and port only, without http:// — e.g. 127.0.0.1:5199';
  if (!HOST_PORT.test(v)) return 'Write it as host:port, e.g. 127.0.0.1:5199 or hooks.internal:8080';
  const port = Number(v.slice(v.lastIndexOf(':') + 1));
  if (port < 1 || port > 65535) return 'The port must be 1–65535';
  if (hosts.includes(v) || fromEnvironment.includes(v)) return `${v} is allowed already`;
  return null;
}

/**
 * Settings (admins): what an admin changes while the product runs, applied at once on every server
 * process. Today: the outbound hosts alert channels (and integrations, reports) may call over plain
 * http or inside the network.
 */
export default function SettingsScreen() {
  const [settings, setSettings] = useState<SettingsDto | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [hosts, setHosts] = useState<string[]>([]);
  const draft = useOutboundHostDraft();
  // A host a refused alert offered to allow: typed in, with a word on what to press.
  const [offered] = useState(draft.host);
  const [typed, setTyped] = useState(draft.host ?? '');
  const [tried, setTried] = useState(false);
  const submit = useToastSubmit();

  const load = async () => {
    setLoadError(null);
    try {
      const s = await api.get<SettingsDto>('/api/admin/settings');
      setSettings(s);
      setHosts(s.outboundAllowedHosts);
    } catch (e) {
      setLoadError(errorText(e));
    }
  };
  useEffect(() => {
    void load();
    // The offered host is typed in once; it is not offered again.
    draft.offer(null);
  }, []);

  if (loadError) return <LoadError title="Failed to load the settings" detail={loadError} onRetry={() => void load()} />;
  if (!settings) return <Skeleton active />;
  const fromEnvironment = settings.fromEnvironment.outboundAllowedHosts;
  const problem = problemOf(typed, hosts, fromEnvironment);
  const changed = !sameList(hosts, settings.outboundAllowedHosts);
  const add = () => {
    setTried(true);
    const v = typed.trim().toLowerCase();
    if (!v || problem) return;
    setHosts((h) => [...h, v]);
    setTyped('');
    setTried(false);
  };
  const save = () =>
    submit.run(() => api.put<SettingsDto>('/api/admin/settings', { outboundAllowedHosts: hosts }), {
      success: (s: SettingsDto) => {
        setSettings(s);
        setHosts(s.outboundAllowedHosts);
        return ['Settings saved', 'Applied at once on every server process'];
      },
      failure: 'The settings were not saved',
    });

  return (
    <div data-testid="settings-screen" style={{ maxWidth: 760 }}>
      <Typography.Paragraph style={{ color: SECONDARY_TEXT }}>
        What an admin changes while LiveDash runs. A change applies at once on every server process and is kept in the Activity Log.
        Ports, the database and secrets are set where the server starts (its environment).
      </Typography.Paragraph>
      <Card title={<span id="outbound-hosts-title">Outbound hosts</span>} aria-labelledby="outbound-hosts-title" data-testid="outbound-hosts">
        {offered && typed === offered && (
          <Alert style={{ marginBottom: 12 }} type="info" showIcon title={`To allow ${offered}: press Add, then Save.`} data-testid="offered-host" />
        )}
        <Typography.Paragraph>
          Alert channels and integrations call <Typography.Text code>https://</Typography.Text> addresses on the internet. To let them reach a receiver, an API
          or a database over plain <Typography.Text code>http://</Typography.Text> or inside your network (this machine, a private or link-local address), allow its
          host and port here.
        </Typography.Paragraph>
        {fromEnvironment.length > 0 && (
          <Typography.Paragraph data-testid="outbound-from-environment">
            Allowed by the server&apos;s environment (<Typography.Text code>OUTBOUND_ALLOWED_HOSTS</Typography.Text>, changed by a restart):{' '}
            {fromEnvironment.map((h) => <Tag key={h}>{h}</Tag>)}
          </Typography.Paragraph>
        )}
        <List
          size="small"
          bordered
          data-testid="outbound-hosts-list"
          locale={{ emptyText: <span style={{ color: SECONDARY_TEXT }}>No host allowed here yet</span> }}
          dataSource={hosts}
          renderItem={(h) => (
            <List.Item actions={[<Button key="remove" size="small" aria-label={`Remove ${h}`} icon={<DeleteOutlined />} onClick={() => setHosts((all) => all.filter((x) => x !== h))}>Remove</Button>]}>
              <Typography.Text code>{h}</Typography.Text>
            </List.Item>
          )}
        />
        <Form layout="vertical" style={{ marginTop: 16 }} onFinish={add}>
          <Form.Item label="Allow a host" validateStatus={tried && problem ? 'error' : undefined} help={tried && problem ? problem : 'host:port, e.g. 127.0.0.1:5199'} htmlFor="outbound-host-input">
            <Flex gap={8}>
              <Input id="outbound-host-input" value={typed} placeholder="127.0.0.1:5199" onChange={(e) => setTyped(e.target.value)} style={{ maxWidth: 320 }} />
              <Button htmlType="submit" icon={<PlusOutlined />}>Add</Button>
            </Flex>
          </Form.Item>
        </Form>
        <Flex gap={12} align="center" style={{ marginTop: 8 }}>
          <Button type="primary" onClick={() => void save()} loading={submit.busy} disabled={!changed} data-testid="save-settings">Save</Button>
          {changed && <Tag color="orange">Unsaved changes</Tag>}
          {changed && <Button onClick={() => setHosts(settings.outboundAllowedHosts)}>Discard changes</Button>}
        </Flex>
        {settings.updatedAt && (
          <Typography.Paragraph style={{ color: SECONDARY_TEXT, marginTop: 12, marginBottom: 0 }}>
            Last changed by {settings.updatedBy ?? 'someone'} on {new Date(settings.updatedAt).toLocaleString()}.
          </Typography.Paragraph>
        )}
      </Card>
    </div>
  );
}
