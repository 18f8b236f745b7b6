import type { JoinAck, ServerToClientEvents } from '@common/realtime';
import type { LiveSocket } from './socket';

/** What a live resource's callbacks may ask of it. */
export interface LiveControl {
  /** Reads the resource again. One read at a time: asked during a read, it runs once more after it. */
  refetch(): Promise<void>;
  /**
   * Reads again after a random wait of up to `maxDelayMs` (one wait at a time): for a refetch every
   * open page is told to make at the same instant, so they do not all ask at once.
   */
  refetchSoon(maxDelayMs: number): void;
  /** Joins the resource's room again (e.g. the server moved it to another room). */
  join(): void;
  /** A read is under way. */
  readonly loading: boolean;
  /** The resource was left (screen closed, another resource shown): nothing more is applied. */
  readonly left: boolean;
}

/** A room of the socket the resource's pushes come through. */
export interface LiveRoom {
  rejoin(): void;
  leave(): void;
}

/** A room joined by one emit: at once when the socket is connected, again after each reconnect; `leave`, if given, when the resource is left while connected. */
export function emitRoom(socket: LiveSocket, join: () => void, leave?: () => void): LiveRoom {
  if (socket.connected) join();
  return {
    rejoin: join,
    leave: () => {
      if (socket.connected) leave?.();
    },
  };
}

type Pushes = { [E in keyof ServerToClientEvents]?: ServerToClientEvents[E] };

export interface LiveResourceOptions<T> {
  /** The socket the pushes come through; null: read once, no pushes (signed out). */
  socket: LiveSocket | null;
  /** Reads the resource; `signal` aborts when the resource is left. */
  load(signal: AbortSignal): Promise<T>;
  /**
   * Shows an answer. May go on reading (later pages) before it resolves: the read counts as under
   * way until then. Never called with a stale answer or once the resource is left.
   */
  loaded(value: T, signal: AbortSignal): void | Promise<void>;
  /** A read failed (not called once the resource is left). */
  failed?(error: unknown): void;
  /** After every read, answered or failed, while the resource is still shown. */
  settled?(live: LiveControl): void;
  /**
   * Revisions: an answer whose revision is below the one shown is dropped. Either side may say
   * null (not comparable, e.g. nothing shown yet): the answer is taken.
   */
  revision?: { of(value: T): number | null; shown(): number | null };
  /** Pushed changes, applied as they come. */
  pushes?(live: LiveControl): Pushes;
  /**
   * The room the pushes come from: a factory that joins at once when the socket is connected (and
   * answers every join through `ack`). Without one, the socket's own rooms carry the pushes.
   */
  room?(socket: LiveSocket, ack: (r: JoinAck) => void): LiveRoom;
  /** Hears every answer to a join of the room. */
  joined?(ack: JoinAck): void;
  /** The socket connected again within the server's recovery window (rooms and missed pushes came with it). */
  recovered?(): void;
  /** The socket lost its connection. */
  disconnected?(): void;
  /** Also reads every so many milliseconds: the fallback for what is not pushed. */
  pollMs?: number;
}

export interface LiveResource {
  refetch(): Promise<void>;
  /** Leaves the resource: listeners off, room left, a read under way aborted and its answer dropped. */
  dispose(): void;
}

/**
 * The one way the web app follows a live resource: read it over REST, apply its pushes, and read
 * it again whenever what is shown may have fallen behind. The rules:
 * - one read at a time; a refetch asked during a read runs once after it;
 * - an answer older than what is shown (`revision`) never replaces it, and an answer that comes
 *   after the resource was left is dropped (its request is aborted);
 * - a connect the server recovered needs nothing; any other connect joins the room again and reads
 *   again — without a room at once, with one when the join is answered (in the room first, so no
 *   change falls between the two). The first connect of a socket that was still connecting reads
 *   again only when the room is ahead of what is shown (or says no revision) or refused the join.
 */
export function followLive<T>(options: LiveResourceOptions<T>): LiveResource {
  const { socket } = options;
  const abort = new AbortController();
  let left = false;
  let inFlight = false;
  let again = false;
  let soonTimer: ReturnType<typeof setTimeout> | undefined;

  const refetch = async (): Promise<void> => {
    if (left) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    try {
      const value = await options.load(abort.signal);
      if (left) return;
      const have = options.revision?.shown() ?? null;
      const got = options.revision?.of(value) ?? null;
      if (have === null || got === null || got >= have) await options.loaded(value, abort.signal);
    } catch (e) {
      if (!left) options.failed?.(e);
    } finally {
      inFlight = false;
    }
    if (left) return;
    options.settled?.(live);
    if (again) {
      again = false;
      await refetch();
    }
  };

  type JoinReason = 'start' | 'connect' | 'reconnect';
  let joinReason: JoinReason = 'start';
  const onJoined = (ack: JoinAck) => {
    if (left) return;
    options.joined?.(ack);
    if (!ack.ok || joinReason === 'reconnect') return void refetch();
    if (ack.revision === undefined) {
      if (joinReason === 'connect') void refetch();
      return;
    }
    const shown = options.revision?.shown() ?? null;
    if ((shown === null || ack.revision > shown) && !inFlight) void refetch();
  };
  const room = socket && options.room ? options.room(socket, onJoined) : null;

  const live: LiveControl = {
    refetch,
    refetchSoon(maxDelayMs) {
      if (soonTimer !== undefined || left) return;
      soonTimer = setTimeout(() => {
        soonTimer = undefined;
        void refetch();
      }, Math.random() * maxDelayMs);
    },
    join() {
      joinReason = 'start';
      if (socket?.connected) room?.rejoin();
    },
    get loading() {
      return inFlight;
    },
    get left() {
      return left;
    },
  };

  const listeners = Object.entries(options.pushes?.(live) ?? {}) as [string, (...args: unknown[]) => void][];
  let connectedBefore = socket?.connected ?? false;
  const onConnect = () => {
    if (socket?.recovered) return options.recovered?.();
    joinReason = connectedBefore ? 'reconnect' : 'connect';
    connectedBefore = true;
    if (room) room.rejoin();
    else void refetch();
  };
  const onDisconnect = () => options.disconnected?.();
  // The socket's typed `on` knows each event's listener; the table of them is checked where it is written.
  const untyped = socket as unknown as { on(e: string, f: (...a: unknown[]) => void): void; off(e: string, f: (...a: unknown[]) => void): void } | null;
  for (const [event, listener] of listeners) untyped?.on(event, listener);
  untyped?.on('connect', onConnect);
  untyped?.on('disconnect', onDisconnect);
  const poll = options.pollMs ? setInterval(() => void refetch(), options.pollMs) : undefined;
  void refetch();

  return {
    refetch,
    dispose() {
      if (left) return;
      left = true;
      abort.abort();
      clearInterval(poll);
      clearTimeout(soonTimer);
      for (const [event, listener] of listeners) untyped?.off(event, listener);
      untyped?.off('connect', onConnect);
      untyped?.off('disconnect', onDisconnect);
      room?.leave();
    },
  };
}
