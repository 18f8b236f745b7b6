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
