/** The server's logger lives with the operations (pino, text or JSON, request ids): server/operations/logger. */
export { createLogger, type LogFields, type LogFormat, type LogLevel, type Logger } from './operations/logger';
