import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, expect } from 'vitest';
import type { ClientToServerEvents, JoinAck, ServerToClientEvents } from '@common/realtime';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A connected Socket.IO client (websocket only), optionally with the admin token. */
export async function openSocket(url: string, token?: string): Promise<TestSocket> {
  const socket: TestSocket = connect(url, { transports: ['websocket'], auth: token ? { token } : {}, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (e) => reject(e));
  });
  return socket;
}

/** A socket signed in by a session cookie (as the browser's console and viewer connect). */
export async function cookieSocket(url: string, cookie: string): Promise<TestSocket> {
  const socket: TestSocket = connect(url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

export function join(socket: TestSocket, event: 'dashboard:join' | 'datasource:join' | 'integration:join', id: string): Promise<JoinAck> {
  return new Promise((resolve) => socket.emit(event, id, resolve));
}

/** Resolves with the next payload of an event, or fails after a timeout. */
export function next<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E, timeoutMs = 3000): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event as 'records:upserted', ((payload: unknown) => {
      clearTimeout(t);
      resolve(payload as Parameters<ServerToClientEvents[E]>[0]);
    }) as never);
  });
}

/** Resolves with the next payload of an event that satisfies `wanted`, or fails after a timeout. */
export function nextWhere<E extends keyof ServerToClientEvents>(
  socket: TestSocket, event: E, wanted: (payload: Parameters<ServerToClientEvents[E]>[0]) => boolean, timeoutMs = 3000,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const on = ((payload: Parameters<ServerToClientEvents[E]>[0]) => {
      if (!wanted(payload)) return;
      clearTimeout(t);
      socket.off(event as 'records:upserted', on as never);
      resolve(payload);
    }) as never;
    const t = setTimeout(() => {
      socket.off(event as 'records:upserted', on);
      reject(new Error(`no matching ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on(event as 'records:upserted', on);
  });
}

/** Collects every payload of an event until stopped. */
export function collect<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) {
  const items: Parameters<ServerToClientEvents[E]>[0][] = [];
  const fn = (p: unknown) => items.push(p as Parameters<ServerToClientEvents[E]>[0]);
  socket.on(event as 'records:upserted', fn as never);
  return { items, stop: () => socket.off(event as 'records:upserted', fn as never) };
}

/**
 * Resolves once everything the server sent this socket before now has arrived: the answer to a
 * request comes after them on the same connection. A test that asserts "nothing arrived" waits for
 * a later event that would have come after it (another socket's copy of the same broadcast, a
 * later change), then for this, instead of sleeping.
 */
export async function caughtUp(socket: TestSocket): Promise<void> {
  await join(socket, 'dashboard:join', 'caught-up?');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sockets of a test file's tests, each disconnected after its test: `open(token?)` connects one
 * (with the admin token if given), `viewerOf(dashboardId)` one that joined the dashboard's view.
 */
export function socketsPerTest(url: () => string) {
  let held: TestSocket[] = [];
  afterEach(() => {
    held.forEach((x) => x.disconnect());
    held = [];
  });
  const open = async (token?: string) => {
    const socket = await openSocket(url(), token);
    held.push(socket);
    return socket;
  };
  return {
    open,
    async viewerOf(dashboardId: string) {
      const v = await open();
      expect((await join(v, 'dashboard:join', dashboardId)).ok).toBe(true);
      return v;
    },
  };
}
