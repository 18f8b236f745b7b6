/** The door of dashboards: what other parts of the server may use (they import nothing else from this folder). */
export { createDashboard, dashboardsOnSource, detachDashboardsFrom, getDashboard, listDashboards, listPublicDashboards, loadPublishedDashboard, publicDashboardHead, publicDashboardView } from './dashboards';
export { dashboardsRouter } from './dashboardsRoutes';
export { dashboardVersionsRouter } from './versions/versionsRoutes';
export { startDashboardVersions } from './versions/retention';
export { joinDraft } from './draftRooms';
export { signedInDashboardView } from './draftView';
export { presentPublicHeadFromDtos, serializePublicView } from './presentPublicView';
