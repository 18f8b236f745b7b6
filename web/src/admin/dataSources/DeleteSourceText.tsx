import { Typography } from 'antd';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { StatusTag } from '../dashboards/StatusTag';

/** The delete confirmation's text: what goes (the records) and which dashboards lose their data (names, live or draft). */
export function DeleteSourceText({ dataSource: ds, dashboards }: { dataSource: DataSourceDto; dashboards: DashboardDto[] }) {
  const records = `${ds.recordCount.toLocaleString()} ${ds.recordCount === 1 ? 'record' : 'records'}`;
  return (
    <div data-testid="delete-source-text">
      <Typography.Paragraph>
        Are you sure you want to delete the data source "{ds.name}"? All its records ({records}) will be deleted. This action cannot be undone.
      </Typography.Paragraph>
      {dashboards.length === 0 ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>No dashboard uses this data source.</Typography.Paragraph>
      ) : (
        <>
          <Typography.Paragraph strong style={{ marginBottom: 4 }}>
            {dashboards.length === 1 ? '1 dashboard uses it' : `${dashboards.length} dashboards use it`} and will be left with no data source:
          </Typography.Paragraph>
          <ul style={{ margin: 0, paddingInlineStart: 20, maxHeight: 200, overflow: 'auto' }} data-testid="delete-source-dashboards">
            {dashboards.map((d) => (
              <li key={d.id}>
                {d.name} <StatusTag isPublished={d.isPublished} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
