/** The door of the HTTP API provider. */
export { apiProvider } from './provider';
