import { Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { at, SecretField, Section } from './fieldParts';
import { DEFAULT_PORT, readConnection, type DatabaseEngine } from './databaseValues';

/** A database's config fields (PostgreSQL, MySQL/MariaDB), named under `config` (values: databaseValues.ts). */

const TLS = [
  { value: '', label: 'Default: verified TLS (none for a host the server allow-lists)' },
  { value: 'verify-full', label: 'TLS, certificate and host name verified' },
  { value: 'verify-ca', label: 'TLS, certificate verified (not the host name)' },
  { value: 'require', label: 'TLS, not verified' },
  { value: 'disable', label: 'No TLS (only for a host the server allow-lists)' },
];

const EXAMPLE: Record<DatabaseEngine, { scheme: string; query: string }> = {
  postgres: { scheme: 'postgres://reader:password@db.example.com:5432/shop?sslmode=verify-full', query: 'SELECT id, status, total, updated_at\nFROM orders' },
  mysql: { scheme: 'mysql://reader:password@db.example.com:3306/shop', query: 'SELECT id, status, total, updated_at\nFROM orders' },
};

/** A pasted connection string fills the fields below (it is not sent as it is). */
function PasteConnection({ engine }: { engine: DatabaseEngine }) {
  const form = Form.useFormInstance();
  return (
    <Form.Item label="Connection string (optional)" extra="Paste one to fill the fields below">
      <Input
        aria-label="Connection string"
        placeholder={EXAMPLE[engine].scheme}
        autoComplete="off"
        data-testid="db-paste"
        onChange={(e) => {
          const parts = readConnection(e.target.value);
          if (parts) form.setFieldsValue({ config: { ...form.getFieldValue('config'), ...parts } });
        }}
      />
    </Form.Item>
  );
}

/** The fields of one engine's form: the connection in its parts, the query, how rows are told apart and which are new. */
export function databaseFields(engine: DatabaseEngine) {
  return function DatabaseFields({ editing }: { editing: boolean }) {
    return (
      <>
        <Section title="Connection">
          {!editing && <PasteConnection engine={engine} />}
          <Row gutter={12}>
            <Col xs={24} md={14}>
              <Form.Item name={at('host')} label="Host" required extra="A private or local address only if an admin allowed its host:port under Settings › Outbound hosts">
                <Input placeholder="db.example.com" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={4}>
              <Form.Item name={at('port')} label="Port"><InputNumber min={1} max={65535} placeholder={String(DEFAULT_PORT[engine])} style={{ width: '100%' }} /></Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name={at('database')} label="Database" required><Input placeholder="shop" autoComplete="off" /></Form.Item>
            </Col>
          </Row>
          <Row gutter={12}>
            <Col xs={24} md={12}>
              <Form.Item name={at('user')} label="User" required extra="One that may only read: every batch is read in a read-only transaction all the same">
                <Input placeholder="reader" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <SecretField name="password" label="Password" />
            </Col>
          </Row>
          <Form.Item name={at('tls')} label="Encryption (sslmode)"><Select options={TLS} aria-label="Encryption" /></Form.Item>
        </Section>
        <Section title="Rows">
          <Form.Item
            name={at('query')}
            label="Query"
            required
            extra="One SELECT (joins, views, WITH); it is read in batches, ordered by the incremental column and the primary key"
          >
            <Input.TextArea rows={4} placeholder={EXAMPLE[engine].query} spellCheck={false} style={{ fontFamily: 'monospace' }} data-testid="db-query" />
          </Form.Item>
          <Row gutter={12}>
            <Col xs={24} md={9}>
              <Form.Item name={at('primaryKey')} label="Primary key" extra="The column that tells rows apart: a row read again is updated">
                <Input placeholder="id" />
              </Form.Item>
            </Col>
            <Col xs={24} md={9}>
              <Form.Item name={at('incrementalColumn')} label="Incremental column" extra="A column that grows with new and changed rows: later syncs read only rows past it">
                <Input placeholder="updated_at" />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name={at('maxPages')} label="Most batches a sync"><InputNumber min={1} placeholder="no limit" style={{ width: '100%' }} /></Form.Item>
            </Col>
          </Row>
        </Section>
      </>
    );
  };
}
