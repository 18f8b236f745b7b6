/** The door of activity: what other parts of the server may use (they import nothing else from this folder). */
export { attachActivityFeed } from './activityFeed';
export { startActivityLog } from './activityLog';
export { activityRouter } from './activityRoutes';
