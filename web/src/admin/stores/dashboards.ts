import type { DashboardDto } from '@common/schemas/dashboard';
import { api } from '../../api/client';
import { createEntityStore } from './entityStore';

/** Every dashboard (drafts included), fed by GET /api/admin/dashboards and admin pushes. */
export const useDashboards = createEntityStore<DashboardDto>('/api/admin/dashboards', (p) => api.get<DashboardDto[]>(p));
