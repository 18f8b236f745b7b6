import type { AppContext } from '../core';
import type { Principal } from '../access';
import { accountsHandle, mayHold, type Access } from '../access';
import type { RealtimeServer } from '../realtime';

type AppSocket = Parameters<Parameters<RealtimeServer['on']>[1]>[0];

/** Whether an access may hold a room (mayHold, or a memo of it for one pass). */
export type RoomCheck = (access: Access, room: string) => Promise<boolean>;

/**
 * Signed-in sockets checked again against the database, every SOCKET_RECHECK_MS (by default the
 * session cache's lifetime) and whenever `run()` is called (the Redis relay is back). Ended
 * sessions and tokens, removed or disabled people, lowered roles and changed dashboard limits
 * reach every process through the revocation relay — but not what was revoked while Redis was
 * down (or while this process was cut off from it). One pass costs three queries for all the
 * credentials (accounts.reload, which refreshes the session cache too) and one room check per
 * distinct access and room: a socket whose credential ended is disconnected, any other keeps
 * only the rooms it may still hold (`recheck`).
 */
export function startSocketRecheck(
  io: RealtimeServer,
  ctx: AppContext,
  recheck: (socket: AppSocket, checked: { principal: Principal; holds: RoomCheck }) => Promise<void>,
): { run(): void; close(): void } {
  let running = false;
  let again = false;

  async function pass() {
    const sockets = [...io.of('/').sockets.values()].filter((s) => s.data.credentialHash && (s.data.via === 'session' || s.data.via === 'apiToken'));
    if (!sockets.length) return;
    const found = await accountsHandle.of(ctx).reload(sockets.map((s) => ({ via: s.data.via as 'session' | 'apiToken', hash: s.data.credentialHash! })));
    const memo = new Map<string, Promise<boolean>>();
    const holds: RoomCheck = (access, room) => {
      const key = JSON.stringify([access.role, access.dashboardIds, room]);
      if (!memo.has(key)) memo.set(key, mayHold(ctx, access, room));
      return memo.get(key)!;
    };
    let ended = 0;
    for (const socket of sockets) {
      if (!socket.connected) continue;
      const principal = found.get(socket.data.credentialHash!);
      if (principal) await recheck(socket, { principal, holds });
      else {
        ended++;
        socket.disconnect(true);
      }
    }
    ctx.log.debug(`realtime: checked ${sockets.length} signed-in socket(s) again (${found.size} credential(s), ${ended} ended)`);
  }

  /** One pass now; a call during a pass runs one more after it (what changed meanwhile is seen). */
  function run() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void pass()
      .catch((e) => ctx.log.error('realtime: could not check the signed-in sockets again', e))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          run();
        }
      });
  }

  const timer = setInterval(run, ctx.config.SOCKET_RECHECK_MS);
  timer.unref();
  return { run, close: () => clearInterval(timer) };
}
