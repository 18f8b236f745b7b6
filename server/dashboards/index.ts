/** The door of dashboards: what other parts of the server may use (they import nothing else from this folder). */
export { dashboardsOnSource, getDashboard, listDashboards, listPublicDashboards, loadPublishedDashboard, publicDashboardHead, publicDashboardView } from './dashboards';
export { dashboardsRouter } from './dashboardsRoutes';
export { joinDraft } from './draftRooms';
export { signedInDashboardView } from './draftView';
export { presentPublicHeadFromDtos, serializePublicView } from './presentPublicView';
