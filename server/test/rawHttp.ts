import net from 'node:net';

/**
 * Sends a request's head and only the first bytes of a much larger declared body, then waits for
 * the answer: a server that reads bodies before deciding would wait forever for the rest.
 */
export async function headOnlyRequest(url: string, method: string, path: string, headers: Record<string, string>, timeoutMs = 5_000): Promise<{ status: number; head: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${method} ${path} within ${timeoutMs} ms: the body was awaited`));
    }, timeoutMs);
    socket.on('connect', () => {
      const lines = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${lines.join('\r\n')}\r\n\r\n{"partial":`);
    });
    socket.on('data', (d) => {
      data += d.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), head: data.slice(0, end), ms: Date.now() - started });
    });
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * Writes raw bytes to the server (a malformed request, a body cut short) and resolves with what
 * came back once the server closes the connection; `hangUp` closes it from this side at once.
 */
export async function rawRequest(url: string, raw: string, opts: { hangUp?: boolean; timeoutMs?: number } = {}): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close the connection within ${opts.timeoutMs ?? 5_000} ms`));
    }, opts.timeoutMs ?? 5_000);
    socket.on('connect', () => {
      socket.write(raw);
      if (opts.hangUp) socket.destroy();
    });
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.on('error', () => undefined);
  });
}
