import http from 'node:http';

export interface RecordedRequest {
  method: string;
  url: string;
  authorization: string | null;
  body: string;
}

export interface RecordingHost {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A second, foreign "Zendesk": a real HTTP server that answers every request 401 (which would
 * make a careless client try its refresh token next) and records what it was sent.
 */
export async function startRecordingHost(): Promise<RecordingHost> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization ?? null, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_token', description: 'unknown token' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
