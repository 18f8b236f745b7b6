/** The door of sockets: what other parts of the server may use (they import nothing else from this folder). */
export { attachRealtime } from './rooms';
