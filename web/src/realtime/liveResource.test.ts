import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JoinAck } from '@common/realtime';
import { emitRoom, followLive, type LiveResource, type LiveResourceOptions } from './liveResource';
import type { LiveSocket } from './socket';

/** A read the test answers when it chooses. */
interface Read {
  signal: AbortSignal;
  answer(value: number): void;
  fail(e: Error): void;
}

/** A resource whose reads wait for the test, recording what it was shown (a number stands for the resource). */
function resource(extra: Partial<LiveResourceOptions<number>> = {}) {
  const reads: Read[] = [];
  const shown: number[] = [];
  const failures: unknown[] = [];
  const log: string[] = [];
  const options: LiveResourceOptions<number> = {
    socket: null,
    load: (signal) =>
      new Promise<number>((answer, fail) => {
        log.push('read');
        reads.push({ signal, answer, fail });
      }),
    loaded: (v) => void shown.push(v),
    failed: (e) => void failures.push(e),
    ...extra,
  };
  return { options, reads, shown, failures, log };
}


/** A round trip to the server: whatever a connect caused on this socket has happened by its answer. */
const probe = (socket: unknown) => (socket as { emitWithAck(e: string): Promise<void> }).emitWithAck('probe');

describe('a live resource: reads', () => {
  it('reads one at a time: refetches asked during a read run once, after it', async () => {
    const r = resource();
    const live = followLive(r.options);
    expect(r.reads).toHaveLength(1);
    void live.refetch();
    void live.refetch();
    void live.refetch();
    expect(r.reads).toHaveLength(1);
    r.reads[0].answer(1);
    await vi.waitFor(() => expect(r.reads).toHaveLength(2));
    r.reads[1].answer(2);
    await vi.waitFor(() => expect(r.shown).toEqual([1, 2]));
    // One more refetch, answered: had the three asked during the first read run twice, a fourth read follows it.
    void live.refetch();
    r.reads[2].answer(3);
    await vi.waitFor(() => expect(r.shown).toEqual([1, 2, 3]));
    expect(r.reads).toHaveLength(3);
    live.dispose();
  });

  it('never lets an answer older than the revision shown replace it', async () => {
    let shownRevision: number | null = null;
    const r = resource({ revision: { of: (v) => v, shown: () => shownRevision } });
    r.options.loaded = (v) => {
      r.shown.push(v);
      shownRevision = v;
    };
    const live = followLive(r.options);
    r.reads[0].answer(5);
    await vi.waitFor(() => expect(r.shown).toEqual([5]));
    // A push moved what is shown on while the next read was under way: its older answer is dropped.
    void live.refetch();
    shownRevision = 7;
    r.reads[1].answer(6);
    void live.refetch();
    await vi.waitFor(() => expect(r.reads).toHaveLength(3));
    r.reads[2].answer(7);
    // Answers are shown in order: had 6 been taken, it would stand between them.
    await vi.waitFor(() => expect(r.shown).toEqual([5, 7]));
    live.dispose();
  });

  it('drops the answer of a resource left (its request aborted), and says nothing of its failure', async () => {
    const r = resource();
    const first = followLive(r.options);
    first.dispose();
    expect(r.reads[0].signal.aborted).toBe(true);
    r.reads[0].answer(1);
    const second = followLive(r.options);
    second.dispose();
    r.reads[1].fail(new Error('aborted'));
    // A later resource's answer shows alone: the left ones' answer and failure came before it and said nothing.
    const third = followLive(r.options);
    r.reads[2].answer(3);
    await vi.waitFor(() => expect(r.shown).toEqual([3]));
    expect(r.failures).toEqual([]);
    third.dispose();
    // And a refetch asked after leaving reads nothing.
    await first.refetch();
    expect(r.reads).toHaveLength(3);
  });
});

describe('a live resource: the socket', () => {
  let http: HttpServer[] = [];
  let servers: Server[] = [];
  const left: { dispose(): void }[] = [];
  /** The answer the server gives the next joins. */
  let joinAnswer: JoinAck = { ok: true };
  let joins = 0;

  /** A Socket.IO server on a free port; with `recovery`, a socket back within a minute gets its rooms and missed pushes. */
  async function start(recovery: boolean): Promise<{ io: Server; url: string }> {
    const h = createServer();
    const io = new Server(h, recovery ? { connectionStateRecovery: { maxDisconnectionDuration: 60_000 } } : {});
    io.on('connection', (socket) => {
      socket.on('dashboards:join', (ack: (r: JoinAck) => void) => {
        joins++;
        void socket.join('list');
        ack(joinAnswer);
      });
      // A round trip: what the socket sent before it has been handled.
      socket.on('probe', (ack: () => void) => ack());
    });
    await new Promise<void>((resolve) => h.listen(0, '127.0.0.1', resolve));
    http.push(h);
    servers.push(io);
    return { io, url: `http://127.0.0.1:${(h.address() as AddressInfo).port}` };
  }
  const client = (url: string, autoConnect = true) => {
    const socket = connect(url, { transports: ['websocket'], reconnectionDelay: 20, reconnectionDelayMax: 50, autoConnect }) as unknown as LiveSocket;
    left.push({ dispose: () => socket.disconnect() });
    return socket;
  };
  const follow = (options: LiveResourceOptions<number>): LiveResource => {
    const live = followLive(options);
    left.push(live);
    return live;
  };
  /** The list room, joined through the socket. */
  const listRoom: LiveResourceOptions<number>['room'] = (socket, ack) => emitRoom(socket, () => socket.emit('dashboards:join', ack));
  /**
   * A resource following the list room over a connected socket, its first read answered and
   * joined, and one push ('d1' removed) received into `removed`.
   */
  async function followList(recovery: boolean, extra: (r: ReturnType<typeof resource>) => Partial<LiveResourceOptions<number>>, removed: string[]) {
    const { io, url } = await start(recovery);
    const socket = client(url);
    await vi.waitFor(() => expect(socket.connected).toBe(true));
    const r = resource({ socket, room: listRoom });
    Object.assign(r.options, extra(r));
    follow(r.options);
    r.reads[0].answer(1);
    await vi.waitFor(() => expect(joins).toBe(1));
    io.to('list').emit('dashboards:removed', { dashboardId: 'd1' });
    await vi.waitFor(() => expect(removed).toEqual(['d1']));
    return { io, socket, r };
  }

  beforeAll(() => {
    http = [];
    servers = [];
  });
  afterEach(() => {
    for (const l of left.splice(0)) l.dispose();
    joins = 0;
    joinAnswer = { ok: true };
  });
  afterAll(async () => {
    for (const io of servers) await new Promise((r) => io.close(r));
  });

  it('applies pushes; a reconnect the server could not recover joins again, then reads again once the join is answered', async () => {
    const removed: string[] = [];
    const { socket, r } = await followList(false, (r) => ({ joined: () => void r.log.push('joined'), pushes: () => ({ 'dashboards:removed': (e) => void removed.push(e.dashboardId) }) }), removed);

    socket.io.engine.close();
    await vi.waitFor(() => expect(r.reads).toHaveLength(2));
    expect(joins).toBe(2);
    expect(r.log).toEqual(['read', 'joined', 'joined', 'read']);
  });

  it('without a room, reads again at once after every connect the server could not recover', async () => {
    const { url } = await start(false);
    const socket = client(url);
    await vi.waitFor(() => expect(socket.connected).toBe(true));
    const r = resource({ socket });
    follow(r.options);
    r.reads[0].answer(1);
    socket.io.engine.close();
    await vi.waitFor(() => expect(r.reads).toHaveLength(2));
  });

  it('reads nothing again after a connect the server recovered: the room and the missed pushes came with it', async () => {
    const removed: string[] = [];
    let recovered = 0;
    // Its broadcast gives the socket an offset to recover from.
    const { io, socket, r } = await followList(true, () => ({ recovered: () => void recovered++, pushes: () => ({ 'dashboards:removed': (e) => void removed.push(e.dashboardId) }) }), removed);

    socket.io.engine.close();
    await vi.waitFor(() => expect(socket.connected).toBe(false));
    io.to('list').emit('dashboards:removed', { dashboardId: 'd2' });
    await vi.waitFor(() => expect(recovered).toBe(1));
    await vi.waitFor(() => expect(removed).toEqual(['d1', 'd2']));
    expect(socket.recovered).toBe(true);
    // A later round trip: a join or read the recovery caused would have come before its answer.
    await probe(socket);
    expect(joins).toBe(1);
    expect(r.reads).toHaveLength(1);
  });

  it('on the first connect of a socket still connecting, reads again only when the room is ahead of what is shown, says no revision or refuses', async () => {
    const { url } = await start(false);
    const cases: { ack: JoinAck; again: boolean }[] = [
      { ack: { ok: true, revision: 5 }, again: false },
      { ack: { ok: true, revision: 6 }, again: true },
      { ack: { ok: true }, again: true },
      { ack: { ok: false, reason: 'Dashboard Not Found' }, again: true },
    ];
    for (const c of cases) {
      joinAnswer = c.ack;
      const socket = client(url, false);
      const acks: JoinAck[] = [];
      const r = resource({ socket, room: listRoom, revision: { of: (v) => v, shown: () => 5 }, joined: (a) => void acks.push(a) });
      follow(r.options);
      r.reads[0].answer(5);
      await vi.waitFor(() => expect(r.shown).toEqual([5]));
      socket.connect();
      await vi.waitFor(() => expect(acks).toHaveLength(1));
      await probe(socket);
      expect(r.reads.length, JSON.stringify(c.ack)).toBe(c.again ? 2 : 1);
    }
  });
});
