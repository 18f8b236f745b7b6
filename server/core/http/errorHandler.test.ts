import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { ADMIN_TOKEN, capturedLog, startTestServer, type TestServer } from '../../test/harness';
import { rawRequest } from '../../test/rawHttp';

const captured = capturedLog();
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, captured.log);
});
afterAll(() => s?.close());

/** Waits until the log holds `text`; a failure shows the log. */
const logged = (text: string) => eventually(() => expect(captured.lines.join('\n')).toContain(text));

const head = (extra: string) =>
  `POST /api/admin/data-sources HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n${extra}\r\n`;

describe('requests a client breaks', () => {
  it('are logged at info without a stack: a malformed chunked body, an upload cut short', async () => {
    const answer = await rawRequest(s.url, `${head('Transfer-Encoding: chunked\r\n')}zz\r\n{"name":"x"}\r\n0\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    await logged('HPE_INVALID_CHUNK_SIZE');

    await rawRequest(s.url, `${head('Content-Length: 100\r\n')}{"name":`, { hangUp: true });
    await logged('HPE_INVALID_EOF_STATE');

    const about = captured.lines.filter((l) => /HPE_|client connection/.test(l));
    expect(about.length).toBeGreaterThanOrEqual(2);
    for (const line of about) expect(line).toMatch(/^info client connection error \(HPE_[A-Z_]+\): /);
    expect(captured.lines.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(captured.lines.join('\n')).not.toMatch(/\n\s+at /);
    // The server serves on.
    expect((await s.http('GET', '/api/health')).status).toBe(200);
  });
});
