/** The door of realtime: what other parts of the server may use (they import nothing else from this folder). */
export { startAuthRelay } from './authRelay';
export { RECOVERY_WINDOW_MS, startRealtimeServer } from './server';
export { watchedRooms } from './watchedRooms';
export type { Realtime, RealtimeServer } from './server';
