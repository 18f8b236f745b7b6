/** The door of sharing: what other parts of the server may use (they import nothing else from this folder). */
export { embeddingHeaders } from './embeddingHeaders';
export { embeddingRouter } from './embeddingRoutes';
export { embedFastRoute, embedRouter } from './embedRoutes';
export { attachEmbedRooms, embedRoomsStill } from './embedRooms';
export { startEmbeddingRelay } from './embedRelay';
export { shareLinksRouter } from './shareLinksRoutes';
export { attachShareRooms } from './shareRooms';
export { startSharingCascades } from './cascades';
