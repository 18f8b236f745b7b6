import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_MAX_BYTES } from '@common/constants';
import { startTestServer, type TestServer } from '../../test/harness';

/**
 * Bodies meant to hold the server: each answers with a limit named, and the server's event loop
 * (this process: the server runs in it) is never held long. The bound is loose — a loaded CI
 * machine stalls on its own (`npm run bench:hostile` measures the real figures) — but far below
 * what the wide CSV and the million rows held before (10 s and more on an idle machine).
 */
let s: TestServer;
let ds: { sourceId: string; ingestKey: string };
beforeAll(async () => {
  s = await startTestServer({ INGEST_MAX_RECORDS: '50', INGEST_BODY_TIMEOUT_SECONDS: '2' });
  ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Hostile', appendOnly: true } })).body;
});
afterAll(() => s?.close());

const LOOP_BOUND_MS = 5_000;

/** Sends a body with the source's ingest key and answers the reply with the longest event-loop stall seen meanwhile. */
async function send(path: string, type: string, body: string) {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const res = await fetch(s.url + path, { method: 'POST', headers: { 'content-type': type, 'x-ingest-key': ds.ingestKey }, body });
  loop.disable();
  return { status: res.status, body: (await res.json()) as any, stallMs: loop.max / 1e6 };
}
const url = () => `/api/data/sources/${ds.sourceId}/records`;
const row = (n: number, cell: (i: number) => string) => Array.from({ length: n }, (_, i) => cell(i)).join(',');

describe('hostile ingest bodies', () => {
  it('refuses a CSV header over 500 columns with a 400 naming the limit, 100,000 columns without holding the loop', async () => {
    const wide = await send(url(), 'text/csv', `${row(100_000, (i) => `c${i}`)}\n${row(100_000, () => '1')}\n`);
    expect(wide.status).toBe(400);
    expect(wide.body.error).toEqual({ code: 'bad_csv_header', message: 'The CSV header names 100,000 columns; the limit is 500 field names per data source' });
    expect(wide.stallMs).toBeLessThan(LOOP_BOUND_MS);
    const dup = await send(url(), 'text/csv', 'a,b,a\n1,2,3\n');
    expect(dup.body.error.message).toBe('The CSV header names the column "a" twice: column names must be unique');
  });

  it('counts records past the limit without reading them: 200,000 tiny CSV rows, NDJSON lines or JSON elements answer 400', async () => {
    const tooMany = 'Too many records: 200000 in one request, the limit is 50; split the payload into batches';
    for (const [type, body] of [['text/csv', `a\n${'1\n'.repeat(200_000)}`], ['application/x-ndjson', '{"v":1}\n'.repeat(200_000)], ['application/json', `[${'{"v":1},'.repeat(199_999)}{"v":1}]`]]) {
      const res = await send(url(), type, body);
      expect(res.body.error?.message, type).toBe(tooMany);
      expect(res.stallMs, type).toBeLessThan(LOOP_BOUND_MS);
    }
  });

  it(`rejects a record over ${RECORD_MAX_BYTES / 1024 / 1024} MB alone, unread, in every body shape; the others land`, async () => {
    const big = 'x'.repeat(RECORD_MAX_BYTES + 1);
    const reason = 'record is 4 MB of text; the limit is 4 MB per record';
    const csv = await send(url(), 'text/csv', `a,b\n1,${big}\n2,ok\n`);
    expect(csv.body).toMatchObject({ inserted: 1, rejections: [{ index: 0, reason: `row on line 2: ${reason}` }] });
    // Quoted, across lines: the rows after it keep their line numbers.
    const quoted = await send(url(), 'text/csv', `a,b\n1,"x\n${big}"\n2,"ok"\n4\n`);
    expect(quoted.body).toMatchObject({ inserted: 1, rejections: [{ index: 0, reason: `row on line 2: ${reason}` }, { index: 2, reason: 'row on line 5 has 1 cells, the header names 2 columns' }] });
    const nd = await send(url(), 'application/x-ndjson', `{"a":"${big}"}\n{"a":2}\n`);
    expect(nd.body).toMatchObject({ inserted: 1, rejections: [{ index: 0, reason: `line 1: ${reason}` }] });
    const array = await send(url(), 'application/json', JSON.stringify([{ a: 1 }, { a: big }]));
    expect(array.body).toMatchObject({ inserted: 1, rejections: [{ index: 1, reason }] });
    const wrapped = await send('/api/data/ingest', 'application/json', JSON.stringify({ sourceId: ds.sourceId, records: [{ a: big }, { a: 1 }] }));
    expect(wrapped.body).toMatchObject({ inserted: 1, rejections: [{ index: 0, reason }] });
    const one = await send(url(), 'application/json', JSON.stringify({ a: big }));
    expect(one.status).toBe(400);
    expect(one.body.error).toEqual({ code: 'record_too_large', message: 'The body is one record of 4 MB of text; the limit is 4 MB per record' });
    for (const r of [csv, quoted, nd, array, wrapped, one]) expect(r.stallMs).toBeLessThan(LOOP_BOUND_MS);
    // Over 500 fields a record is refused unread as well (the body is large enough to be laid out by the worker).
    const wide = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`f${i}`, i]));
    const wideArray = await send(url(), 'application/json', JSON.stringify([wide, { a: 1 }]));
    expect(wideArray.body).toMatchObject({ inserted: 1, rejections: [{ index: 0, reason: 'record has 30,000 fields; the limit is 500 field names per data source' }] });
    const wideOne = await send(url(), 'application/json', JSON.stringify(wide));
    expect(wideOne.body.error).toEqual({ code: 'too_many_fields', message: 'The JSON object has 30,000 fields; the limit is 500 field names per data source' });
  });

  it('reads a large JSON body in slices as JSON.parse would, keeping its errors and its limits', async () => {
    const pad = 'y'.repeat(300 * 1024);
    const malformed = await send('/api/data/ingest', 'application/json', `{"sourceId":"${ds.sourceId}","records":[{"a":"${pad}"},]}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('malformed_json');
    expect(malformed.body.error.message).toMatch(/^Request body is not valid JSON \(/);
    const deep = await send(url(), 'application/json', `[${'['.repeat(200_000)}${']'.repeat(200_000)}]`);
    expect(deep.body.error).toEqual({ code: 'json_too_deep', message: 'The JSON body is nested deeper than the limit of 64 levels' });
    // A reserved key and a number past ±1.8e308 are still seen as JSON.parse gives them.
    const ok = await send('/api/data/ingest', 'application/json', `{"sourceId":"${ds.sourceId}","records":[{"a":"${pad}","__proto__":1},{"b":2,"n":1e400},{"c":[1,{"d":"é"}]}]}`);
    expect(ok.body).toMatchObject({ inserted: 1, rejected: 2 });
    expect(ok.body.rejections.map((r: { reason: string }) => r.reason)).toEqual([
      expect.stringContaining('field name "__proto__" is not allowed'),
      expect.stringContaining('is a number too large to store'),
    ]);
  });

  it('cuts a body that trickles in after INGEST_BODY_TIMEOUT_SECONDS with a 408, and closes the connection', async () => {
    const socket = net.connect(Number(new URL(s.url).port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (answer += d));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`POST ${url()} HTTP/1.1\r\nHost: x\r\nX-Ingest-Key: ${ds.ingestKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`);
    // One byte every 100 ms: the body would take 100 s to arrive.
    const drip = setInterval(() => socket.writable && socket.write(' '), 100);
    const started = Date.now();
    await closed;
    clearInterval(drip);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error).toEqual({
      code: 'body_timeout', message: 'The request body did not arrive within 2 s: send it in one go, or in smaller requests',
    });
  });
});
