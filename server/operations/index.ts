/** The door of operations: what other parts of the server may use (they import nothing else from this folder). */
export { engineRouter } from './engineRoutes';
export { healthRouter } from './healthRoutes';
export { closeInOrder, stopOnSignals, watchNewConnections } from './shutdown';
export type { ShutdownStep } from './shutdown';
export { startOperations } from './operations';
export type { Operations } from './operations';
