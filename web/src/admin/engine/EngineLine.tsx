import { Typography } from 'antd';
import type { EngineStatusDto } from '@common/schemas/engine';
import { useEngineStatus } from './useEngineStatus';

const MODE_LABEL: Record<string, string> = {
  external: 'MongoDB (MONGODB_URI)',
  'embedded-mongod': 'embedded mongod',
  'embedded-jongodb': 'offline engine (jongodb)',
};

const keptWords = (k: EngineStatusDto['dataKept']): string | null => {
  if (k.kept === 'memory') return 'kept in memory only: lost when the server stops';
  if (k.kept === 'mongod-files') return `data kept in ${k.dataDir}`;
  if (k.kept === 'snapshot') return `data kept in ${k.dataDir} (snapshot every ${k.snapshot?.withinSeconds ?? 5} s)`;
  return null;
};

/** Which database engine holds the records, how many, and where they are kept (GET /api/admin/engine). */
export function EngineLine() {
  const status = useEngineStatus((s) => s.status);
  if (!status) return null;
  const kept = status.dataKept ? keptWords(status.dataKept) : null;
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 12, textAlign: 'center' }} data-testid="engine-name">
      Database: {MODE_LABEL[status.mode] ?? status.mode} · {status.recordsCount.toLocaleString()} records in all sources{kept ? ` · ${kept}` : ''}
    </Typography.Paragraph>
  );
}
