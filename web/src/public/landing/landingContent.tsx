import {
  ApiOutlined, AppstoreAddOutlined, BarChartOutlined, CloudOutlined, CustomerServiceOutlined, DatabaseOutlined, DragOutlined,
  LineChartOutlined, LockOutlined, SafetyCertificateOutlined, ShoppingCartOutlined, TeamOutlined, ThunderboltOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

export const PRODUCT = 'LiveDash';

export interface Feature {
  icon: ReactNode;
  title: string;
  text: string;
}

export const FEATURES: Feature[] = [
  { icon: <ApiOutlined />, title: 'Any JSON, one REST API', text: 'Send records of any shape to one ingest endpoint. Standard, support-desk and generic formats are detected for you.' },
  { icon: <DragOutlined />, title: 'Drag-and-drop builder', text: 'Arrange tabs, tables and bucket boards without code. Choose columns, grouping keys and highlight rules.' },
  { icon: <ThunderboltOutlined />, title: 'Live insights', text: 'Dashboards update the moment data arrives, with a 30-second refresh as a safety net.' },
  { icon: <TeamOutlined />, title: 'Role-based access control', text: 'Admins build and publish; everyone else sees only what has been published.' },
  { icon: <LockOutlined />, title: 'Enterprise security', text: 'Token-protected admin and ingest, per-source ingest keys you can rotate, and no secrets in the browser.' },
  { icon: <BarChartOutlined />, title: 'Export anywhere', text: 'Every public dashboard exports to CSV that opens cleanly in any spreadsheet.' },
];

export const INTEGRATIONS: Feature[] = [
  { icon: <CustomerServiceOutlined />, title: 'Support tickets', text: 'Help-desk tickets, users and organisations' },
  { icon: <ShoppingCartOutlined />, title: 'Ecommerce', text: 'Orders, carts and fulfilment events' },
  { icon: <LineChartOutlined />, title: 'Analytics', text: 'Product and marketing metrics' },
  { icon: <ApiOutlined />, title: 'APIs', text: 'Any service that can POST JSON' },
  { icon: <DatabaseOutlined />, title: 'Databases', text: 'Exports and change feeds' },
  { icon: <CloudOutlined />, title: 'Cloud services', text: 'Logs, billing and usage data' },
];

export const STEPS: Feature[] = [
  { icon: <ApiOutlined />, title: 'Connect', text: 'Create a data source and send JSON to the ingest API, or connect an integration.' },
  { icon: <AppstoreAddOutlined />, title: 'Build', text: 'Add tabs, pick table or bucket views, and choose what each shows.' },
  { icon: <LineChartOutlined />, title: 'Analyze', text: 'Publish and watch the numbers move live; share the link or export CSV.' },
];

export const CLAIMS: { value: string; label: string }[] = [
  { value: '99.9%', label: 'Uptime' },
  { value: '24/7', label: 'Support' },
  { value: 'GDPR', label: 'Compliant' },
  { value: 'ISO 27001', label: 'Certified' },
  { value: 'SOC 2 Type II', label: 'Audited' },
  { value: 'HIPAA', label: 'Ready' },
];

export const TRUST_ICON = <SafetyCertificateOutlined />;

/** Footer link groups: every link leads to a real page. */
export const FOOTER_GROUPS: { title: string; links: { label: string; href: string; newTab?: boolean }[] }[] = [
  { title: 'Product', links: [{ label: 'Dashboards', href: '/dashboards' }, { label: 'Admin Console', href: '/admin' }, { label: 'Features', href: '#features' }] },
  { title: 'Resources', links: [{ label: 'API Docs', href: '/admin?tab=api-docs' }, { label: 'Integrations', href: '#integrations' }, { label: 'How it works', href: '#how-it-works' }] },
  { title: 'Company', links: [{ label: 'Security', href: '#trust' }, { label: 'Get started', href: '#get-started' }, { label: 'Live demo', href: '/dashboards' }] },
];
