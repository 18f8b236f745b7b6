import { Alert, Card, Flex, Typography } from 'antd';
import { CodeBlock } from './CodeBlock';
import { examples, type SampleSource } from './samples';

/** Examples: the source URL's samples by task, built from the chosen source. */
export function DocsExamples({ s, ingestKey }: { s: SampleSource; ingestKey: string }) {
  return (
    <>
      {s.isPlaceholder && (
        <Alert type="info" showIcon title="This source has no records yet: the sample fields are placeholders — send your own" />
      )}
      {examples(s, ingestKey).map((e) => (
        <Card key={e.key} title={e.title} data-testid={`example-${e.key}`}>
          <Flex vertical gap={12}>
            <Typography.Text type="secondary">{e.about}</Typography.Text>
            {e.note && <Alert type="warning" showIcon title={e.note} />}
            {e.blocks.map((b) => (
              <Flex key={b.label} vertical gap={4}>
                <Typography.Text strong>{b.label}</Typography.Text>
                <CodeBlock label={`${e.title}: ${b.label}`} code={b.code} />
              </Flex>
            ))}
          </Flex>
        </Card>
      ))}
    </>
  );
}
