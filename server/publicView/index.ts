/** The door of publicView: what other parts of the server may use (they import nothing else from this folder). */
export { analyticsRouter } from './analyticsRoutes';
export { publicDashboardsRouter } from './publicDashboardsRoutes';
export { emptyRoom, joinDashboard, leaveDashboard, moveRoom, neededSources, releaseRooms } from './publicRooms';
export type { RoomMember } from './publicRooms';
export { publicViewFastPath, type FastRoute } from './viewCache/fastPath';
export { SHARE_VIEW_HEADERS, sendLockedView, sendShareView, viewCacheOf, type LockedAccess, type ServedView } from './viewCache';
export { isLive } from './viewCache/shareLinks';
export { VIEW_EVENTS_CHANNEL, startViewEventRelay } from './viewEventRelay';
export { attachViewerCounts, viewerCounter } from './viewerCounts';
