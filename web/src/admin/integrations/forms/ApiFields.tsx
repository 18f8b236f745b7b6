import { Button, Col, Flex, Form, Input, InputNumber, Row, Select } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { at, SecretField, Section } from './fieldParts';

/** The HTTP API's config fields, named under `config` (values: apiValues.ts). */

const AUTH = [
  { value: 'none', label: 'None' },
  { value: 'bearer', label: 'Bearer token' },
  { value: 'basic', label: 'Basic (user name and password)' },
  { value: 'header', label: 'A header (API key)' },
  { value: 'oauth2', label: 'OAuth 2 client credentials' },
];

const PAGING = [
  { value: 'none', label: 'None: one answer holds every record' },
  { value: 'next-url', label: 'Next URL in the answer' },
  { value: 'link-header', label: 'Link header (rel="next")' },
  { value: 'cursor', label: 'Cursor in the answer, sent back as a parameter' },
  { value: 'page', label: 'Page number parameter' },
  { value: 'offset', label: 'Offset and limit parameters' },
];

function AuthFields() {
  const type = Form.useWatch(at('authType'));
  if (type === 'bearer') return <SecretField required name="token" label="Token" />;
  if (type === 'basic') {
    return (
      <Row gutter={12}>
        <Col xs={24} md={12}><Form.Item name={at('username')} label="User name" required><Input autoComplete="off" /></Form.Item></Col>
        <Col xs={24} md={12}><SecretField required name="password" label="Password" /></Col>
      </Row>
    );
  }
  if (type === 'header') {
    return (
      <Row gutter={12}>
        <Col xs={24} md={10}><Form.Item name={at('headerName')} label="Header name" required><Input placeholder="X-Api-Key" /></Form.Item></Col>
        <Col xs={24} md={14}><SecretField required name="headerValue" label="Header value" /></Col>
      </Row>
    );
  }
  if (type === 'oauth2') {
    return (
      <>
        <Form.Item name={at('tokenUrl')} label="Token URL" required><Input placeholder="https://auth.example.com/oauth/token" /></Form.Item>
        <Row gutter={12}>
          <Col xs={24} md={12}><Form.Item name={at('clientId')} label="Client ID" required><Input autoComplete="off" /></Form.Item></Col>
          <Col xs={24} md={12}><SecretField required name="clientSecret" label="Client secret" /></Col>
        </Row>
        <Form.Item name={at('scope')} label="Scope (optional)"><Input placeholder="read" /></Form.Item>
      </>
    );
  }
  return null;
}

function PagingFields() {
  const type = Form.useWatch(at('pagination'));
  if (type === 'next-url') return <Form.Item name={at('nextPath')} label="Path of the next URL in the answer"><Input placeholder="links.next" /></Form.Item>;
  if (type === 'cursor') {
    return (
      <Row gutter={12}>
        <Col xs={24} md={12}><Form.Item name={at('cursorPath')} label="Path of the cursor in the answer"><Input placeholder="meta.next_cursor" /></Form.Item></Col>
        <Col xs={24} md={12}><Form.Item name={at('cursorParam')} label="Parameter it is sent as"><Input placeholder="cursor" /></Form.Item></Col>
      </Row>
    );
  }
  if (type === 'page') {
    return (
      <Row gutter={12}>
        <Col xs={24} md={12}><Form.Item name={at('pageParam')} label="Page parameter"><Input placeholder="page" /></Form.Item></Col>
        <Col xs={24} md={12}><Form.Item name={at('pageStart')} label="First page"><InputNumber min={0} placeholder="1" style={{ width: '100%' }} /></Form.Item></Col>
      </Row>
    );
  }
  if (type === 'offset') {
    return (
      <Row gutter={12}>
        <Col xs={24} md={8}><Form.Item name={at('offsetParam')} label="Offset parameter"><Input /></Form.Item></Col>
        <Col xs={24} md={8}><Form.Item name={at('limitParam')} label="Limit parameter"><Input /></Form.Item></Col>
        <Col xs={24} md={8}><Form.Item name={at('limit')} label="Records a page"><InputNumber min={1} max={100000} style={{ width: '100%' }} /></Form.Item></Col>
      </Row>
    );
  }
  return null;
}

function HeaderList() {
  return (
    <Form.List name={at('headers')}>
      {(fields, { add, remove }) => (
        <Form.Item label="Headers">
          <Flex vertical gap={8}>
            {fields.map((f) => (
              <Flex key={f.key} gap={8}>
                <Form.Item name={[f.name, 'name']} noStyle><Input placeholder="Accept" aria-label="Header name" style={{ flex: '0 0 40%' }} /></Form.Item>
                <Form.Item name={[f.name, 'value']} noStyle><Input placeholder="application/json" aria-label="Header value" /></Form.Item>
                <Button icon={<DeleteOutlined />} aria-label="Remove header" onClick={() => remove(f.name)} />
              </Flex>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })} style={{ alignSelf: 'flex-start' }}>Add header</Button>
          </Flex>
        </Form.Item>
      )}
    </Form.List>
  );
}

/** URL, method, headers, body; sign-in; where the records are; paging; incremental; limits. */
export function ApiFields() {
  const method = Form.useWatch(at('method'));
  return (
    <>
      <Row gutter={12}>
        <Col xs={24} md={18}>
          <Form.Item name={at('url')} label="URL" required extra="https://, or http:// to a host:port an admin allowed under Settings › Outbound hosts">
            <Input placeholder="https://api.example.com/v1/orders" data-testid="api-url" />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item name={at('method')} label="Method"><Select options={[{ value: 'GET' }, { value: 'POST' }]} aria-label="Method" /></Form.Item>
        </Col>
      </Row>
      {method === 'POST' && (
        <Form.Item name={at('body')} label="Body (JSON, sent with every request)"><Input.TextArea rows={3} placeholder='{"status": "open"}' /></Form.Item>
      )}
      <HeaderList />
      <Section title="Sign-in">
        <Form.Item name={at('authType')} label="Authentication"><Select options={AUTH} aria-label="Authentication" /></Form.Item>
        <AuthFields />
      </Section>
      <Section title="Records">
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name={at('recordsPath')} label="Records path" extra="Where the array of records is in each answer; empty: the answer is the array">
              <Input placeholder="data.items" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name={at('primaryKey')} label="Primary key" extra="The field that identifies a record: a record seen again is updated">
              <Input placeholder="id" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name={at('pagination')} label="Pages"><Select options={PAGING} aria-label="Pages" /></Form.Item>
        <PagingFields />
      </Section>
      <Section title="Incremental syncs and limits">
        <Row gutter={12}>
          <Col xs={24} md={9}>
            <Form.Item name={at('incrementalField')} label="Incremental field" extra="Its largest value seen (a date, a number) is kept for the next sync"><Input placeholder="updated_at" /></Form.Item>
          </Col>
          <Col xs={24} md={9}>
            <Form.Item name={at('incrementalParam')} label="Sent as parameter" extra="Empty: older records are skipped here"><Input placeholder="updated_since" /></Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name={at('maxPages')} label="Most pages a sync"><InputNumber min={1} placeholder="no limit" style={{ width: '100%' }} /></Form.Item>
          </Col>
        </Row>
      </Section>
    </>
  );
}
