import type { WidgetFilter } from '@common/schemas/widgets/widget';
import type { AppContext, DashboardDoc } from '../../core';
import { exportDashboardCsv, findDataSource, NotFoundError } from '../../core';

/**
 * The report's CSV: the tab exported as the dashboard's Export CSV writes it (UTF-8 with a BOM,
 * formulas neutralised, the tab's columns), through the same code as a share link's export, so
 * only the records matching the locked filters go out.
 */
export async function reportCsv(app: AppContext, dashboardId: string, tabId: string, filters: WidgetFilter[]): Promise<Buffer> {
  const dashboard = await app.models.Dashboard.findById(dashboardId).lean<DashboardDoc>();
  if (!dashboard) throw NotFoundError(`Dashboard ${dashboardId}`);
  const dataSource = dashboard.dataSourceId ? await findDataSource(app, dashboard.dataSourceId) : null;
  const { stream } = await exportDashboardCsv(app, dashboard, dataSource, tabId, filters);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
