/** The door of demo: what other parts of the server may use (they import nothing else from this folder). */
export { seedDemo } from './seedDemo';
