import { Typography } from 'antd';
import { useEngineStatus } from './useEngineStatus';

const MODE_LABEL: Record<string, string> = {
  external: 'MongoDB (MONGODB_URI)',
  'embedded-mongod': 'embedded mongod',
  'embedded-jongodb': 'offline engine (jongodb)',
};

/** Which database engine holds the records, and how many (GET /api/admin/engine). */
export function EngineLine() {
  const status = useEngineStatus((s) => s.status);
  if (!status) return null;
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 12, textAlign: 'center' }} data-testid="engine-name">
      Database: {MODE_LABEL[status.mode] ?? status.mode} · {status.recordsCount.toLocaleString()} records in all sources
    </Typography.Paragraph>
  );
}
