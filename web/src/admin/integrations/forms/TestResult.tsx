import { Alert, Flex, Table, Tag, Typography } from 'antd';
import type { TestConnectionDto } from '@common/schemas/integration';
import { plural } from '../humanText';
import { OutboundHint } from '../../ui/OutboundHint';

/** What Test connection found: a failure in the server's words, or the fields and sample rows of the first page. */
export type TestOutcome = { ok: true; result: TestConnectionDto } | { ok: false; message: string };

const COLUMNS_SHOWN = 8;

const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function TestResult({ outcome }: { outcome: TestOutcome }) {
  if (!outcome.ok) {
    return <Alert type="error" showIcon title="Test connection failed" description={<OutboundHint text={outcome.message} />} data-testid="test-result" />;
  }
  const { fields, sample, records } = outcome.result;
  const shown = fields.slice(0, COLUMNS_SHOWN);
  return (
    <div data-testid="test-result">
      <Alert
        type="success"
        showIcon
        title={records ? `Connected: the first page holds ${plural(records, 'record')}` : 'Connected, but the first page holds no records'}
        description={
          fields.length ? (
            <Flex wrap gap={4} align="center">
              <Typography.Text type="secondary">Fields found:</Typography.Text>
              {fields.map((f) => <Tag key={f} data-testid="detected-field">{f}</Tag>)}
            </Flex>
          ) : undefined
        }
      />
      {sample.length > 0 && (
        <Table
          size="small"
          style={{ marginTop: 8 }}
          pagination={false}
          scroll={{ x: true }}
          rowKey={(_, i) => String(i)}
          dataSource={sample}
          columns={shown.map((f) => ({ title: f, dataIndex: f, key: f, ellipsis: true, render: (_: unknown, row: Record<string, unknown>) => cell(row[f]) }))}
          caption={<Typography.Text type="secondary">Sample: {plural(sample.length, 'record')}{fields.length > COLUMNS_SHOWN ? `, first ${COLUMNS_SHOWN} fields` : ''}</Typography.Text>}
          data-testid="sample-rows"
        />
      )}
    </div>
  );
}
