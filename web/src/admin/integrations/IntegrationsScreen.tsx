import { Empty } from 'antd';

/** Data Sources > Integrations (spec 2.8). Built by the Zendesk integration work. */
export default function IntegrationsScreen() {
  return <Empty description="Integrations are not available yet" />;
}
