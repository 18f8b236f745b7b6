import net from 'node:net';
import { type DatabaseAddress, type DatabaseConfig, type DatabaseEngine, type TlsMode, readConnectionString } from '@common/schemas/integrations/database';
import { ALLOW_OUTBOUND_WHERE, OutboundRefused, checkOutboundHost, resolveOutboundHost } from '../../core';
import { type TargetProblem, UpstreamProblem } from '../provider';

/**
 * What both database providers do the same way before and around a connection: read the
 * connection string, check its host through the one way out (allow-list, internal addresses
 * refused unless listed, DNS checked; the driver then connects to the checked address and verifies
 * TLS against the host name as typed), choose TLS, and put driver errors in words a person can act
 * on — never with the password in them.
 */

/** How long a connection may take to open, and a statement (one batch) to answer, by default. */
export const CONNECT_TIMEOUT_MS = 10_000;
export const STATEMENT_TIMEOUT_MS = 60_000;

/** Reads the connection string of a validated config (its shape was checked by the schema). */
export function addressOf(config: DatabaseConfig, engine: DatabaseEngine): DatabaseAddress {
  const read = readConnectionString(config.connectionString, engine);
  if ('problem' in read) throw new UpstreamProblem(`connectionString ${read.problem}`);
  return read.address;
}

/** The TLS a connection uses: as asked; unsaid, verify-full — or none for an allowed host:port (OUTBOUND_ALLOWED_HOSTS or Settings › Outbound hosts, as plain http is). */
export function tlsOf(address: DatabaseAddress, allowed: readonly string[]): TlsMode {
  const listed = allowed.includes(`${address.host}:${address.port}`);
  const tls = address.tls ?? (listed ? 'disable' : 'verify-full');
  if (tls === 'disable' && !listed) {
    const hostPort = `${address.host}:${address.port}`;
    throw new OutboundRefused(`connects to ${hostPort} without TLS (sslmode=disable), which only an allowed host:port may: allow ${hostPort} under ${ALLOW_OUTBOUND_WHERE}`, hostPort);
  }
  return tls;
}

/** The check when an integration is saved (no DNS): what is wrong with config.connectionString, or null. */
export function checkDatabaseTarget(config: DatabaseConfig, engine: DatabaseEngine, allowed: readonly string[]): TargetProblem | null {
  const read = readConnectionString(config.connectionString, engine);
  try {
    if ('problem' in read) throw new OutboundRefused(read.problem);
    checkOutboundHost(read.address.host, read.address.port, allowed);
    tlsOf(read.address, allowed);
    return null;
  } catch (e) {
    if (e instanceof OutboundRefused) return { path: 'connectionString', message: e.message };
    throw e;
  }
}

/** The address to connect to, checked after DNS; the host name as typed, without IPv6 brackets, for TLS. */
export async function targetOf(address: DatabaseAddress, allowed: readonly string[]): Promise<{ ip: string; servername: string; tls: TlsMode }> {
  try {
    const tls = tlsOf(address, allowed);
    const { address: ip } = await resolveOutboundHost(address.host, address.port, allowed);
    return { ip, servername: address.host.replace(/^\[|\]$/g, ''), tls };
  } catch (e) {
    // Refused by the one way out: the person fixes the connection string or the allow-list.
    if (e instanceof OutboundRefused) throw new UpstreamProblem(e.message);
    throw e;
  }
}

/** A plain socket whose connect goes to the checked address, whatever host the driver names. */
export function pinnedSocket(ip: string): net.Socket {
  const socket = new net.Socket();
  const connect = socket.connect.bind(socket) as (port: number, host: string) => net.Socket;
  socket.connect = ((port: number) => connect(port, ip)) as typeof socket.connect;
  return socket;
}

const TLS_CODES = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/**
 * Network and TLS failures in words (`where` is host:port), or null when the error is the
 * database's own (its message is then the words). Never the password: callers scrub with `scrub`.
 */
export function networkWords(e: { code?: unknown; message?: string }, where: string): string | null {
  const code = typeof e.code === 'string' ? e.code : '';
  const message = e.message ?? '';
  if (code === 'ECONNREFUSED') return `could not connect to ${where}: connection refused (is the database running and listening there?)`;
  if (code === 'ETIMEDOUT' || /timeout/i.test(message) && /connect/i.test(message)) return `${where} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`;
  // A connection ended while idle between batches is only noticed by the next statement: pg says it
  // "is not queryable", mysql2 that it "is in closed state".
  if (code === 'ECONNRESET' || code === 'EPIPE' || /terminated unexpectedly|connection lost|closed the connection|not queryable|closed state/i.test(message)) return `the connection to ${where} was lost`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${where} cannot be reached from this server`;
  // mysql2 wraps a failed TLS handshake as HANDSHAKE_SSL_ERROR, keeping Node's words.
  if (TLS_CODES.has(code) || code === 'HANDSHAKE_SSL_ERROR') return `the TLS certificate of ${where} could not be verified (${message}); sslmode=require encrypts without verifying it`;
  if (code === 'HANDSHAKE_NO_SSL_SUPPORT' || /does not support (SSL|secure)/i.test(message)) return `${where} does not accept TLS; sslmode=disable connects without it (only to a host:port allowed under ${ALLOW_OUTBOUND_WHERE})`;
  return null;
}

/** A message with the password cut out, wherever a driver or server may have put it. */
export function scrub(message: string, password: string): string {
  if (password.length < 2) return message;
  return message.split(password).join('********').split(encodeURIComponent(password)).join('********');
}
