import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../test/harness';

/** A TCP port that accepts connections and never answers (a firewall, a wrong service, a hung Redis). */
let silent: net.Server;
const sockets = new Set<net.Socket>();
beforeAll(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe('a REDIS_URL that accepts connections and never answers', () => {
  it('stops the server process before it listens, non-zero, with a message naming REDIS_URL', async () => {
    const { port } = silent.address() as net.AddressInfo;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ADMIN_TOKEN, SEED_DEMO: 'false', LOG_LEVEL: 'info', REDIS_URL: `redis://127.0.0.1:${port}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    // A generous ceiling (a loaded machine starts tsx slowly); the server itself gives up after 3 + 5 s.
    const code = await new Promise<number | string>((resolve) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still running after 60 s');
      }, 60_000);
      child.once('exit', (c, signal) => {
        clearTimeout(t);
        resolve(c ?? String(signal));
      });
    });
    expect(code, out).toBe(1);
    expect(out).toContain(`REDIS_URL (127.0.0.1:${port}) did not answer within 5 s`);
    expect(out).not.toContain('listening on');
    expect(sockets.size).toBeGreaterThan(0);
  }, 90_000);
});
