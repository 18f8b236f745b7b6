/** The door of sharing: what other parts of the server may use (they import nothing else from this folder). */
export { embeddingHeaders } from './embeddingHeaders';
export { embeddingRouter } from './embeddingRoutes';
export { embedFastRoute, embedRouter } from './signedEmbedding/routes';
export { attachEmbedRooms, embedRoomsStill } from './signedEmbedding/rooms';
export { startEmbeddingRelay } from './signedEmbedding/relay';
export { shareLinksRouter } from './shareLinksRoutes';
export { attachShareRooms } from './shareRooms';
export { startSharingCascades } from './cascades';
