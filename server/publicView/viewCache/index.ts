export { ViewCache, VIEW_EVENTS, type ViewEvent, type ViewEventName } from './viewCache';
export { viewCacheOf } from './registry';
export { sendPublicView, sendShareView } from './send';
