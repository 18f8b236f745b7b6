export { ViewCache, VIEW_EVENTS, type LockedAccess, type ViewEvent, type ViewEventName } from './viewCache';
export { viewCacheOf } from './registry';
export { SHARE_VIEW_HEADERS, sendLockedView, sendPublicView, sendShareView } from './send';
export type { ServedView } from './servedView';
