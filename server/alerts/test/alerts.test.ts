import crypto from 'node:crypto';
import dns from 'node:dns/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { buildDashboard, buildPerson, buildSource, type BuiltSource } from '../../test/factories';
import { eventually } from '../../test/eventually';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { isInternalAddress } from '../../core/outbound/addresses';
import { activityHandle } from '../../core/activity';
import { alertsHandle } from '..';
import { startReceiver, type TestReceiver } from '../../test/receiver';

/*
 * Alerts against real receivers on loopback (listed in OUTBOUND_ALLOWED_HOSTS) and the project's
 * SMTP test server: rules fire and resolve from the write itself, messages are signed, retried with
 * the same id, never sent twice for one change, and refused addresses are refused.
 */

let s: TestServer;
let rx: TestReceiver;
let smtp: TestSmtpServer;
let n = 0;
/** A tiny cap on the records held per watched source (the tests' sources hold fewer). */
const MAX_RECORDS = 60;
let slidingRule: Awaited<ReturnType<typeof startSlidingRule>>;

beforeAll(async () => {
  rx = await startReceiver();
  smtp = await startSmtpServer();
  s = await startTestServer({ OUTBOUND_ALLOWED_HOSTS: rx.hostPort, SMTP_URL: smtp.url, MAIL_FROM: 'LiveDash <dash@example.com>', ALERT_MAX_RECORDS: String(MAX_RECORDS) });
  // Started first: the minute boundary its record waits for passes while the other tests run.
  slidingRule = await startSlidingRule();
});
afterAll(async () => {
  await s?.close();
  await rx?.close();
  await smtp?.close();
});

/** A fresh source with one record, and a path of the receiver of its own. */
async function setup(records: Record<string, unknown>[] = [{ id: 'a', v: 1 }]): Promise<{ ds: BuiltSource; path: string }> {
  const ds = await buildSource(s, { name: `Orders ${++n}`, primaryKey: 'id', records });
  return { ds, path: `/hook/${n}` };
}

/** Ingests as the admin; answers the moment the ingest's answer came. */
async function ingest(ds: BuiltSource, records: Record<string, unknown>[]): Promise<number> {
  const res = await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Date.now();
}

const maxAbove = (ds: BuiltSource, path: string, extra: Record<string, unknown> = {}) => ({
  name: `Max above 10 (${path})`, dataSourceId: ds.id, metric: 'max', valueField: 'v', condition: { operator: 'gt', value: 10 },
  channels: [{ type: 'webhook', url: `${rx.url}${path}` }], ...extra,
});

async function create(body: unknown) {
  const res = await s.http('POST', '/api/admin/alerts', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('the API', () => {
  it('answers 400 naming the field, and 404 for an unknown source or widget', async () => {
    const { ds } = await setup();
    const bad = async (body: unknown, field: string) => {
      const res = await s.http('POST', '/api/admin/alerts', { body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.fields.map((f: { path: string }) => f.path)).toContain(field);
    };
    await bad({ dataSourceId: ds.id, condition: { operator: 'gt', value: 1 } }, 'name');
    await bad({ name: 'x', dataSourceId: ds.id, condition: { operator: 'above', value: 1 } }, 'condition.operator');
    await bad({ name: 'x', dataSourceId: ds.id }, 'condition');
    await bad({ name: 'x', dataSourceId: ds.id, metric: 'sum', condition: { operator: 'gt', value: 1 } }, 'valueField');
    await bad({ name: 'x', dataSourceId: ds.id, condition: { operator: 'gt', value: 5 }, resolveAt: 9 }, 'resolveAt');
    await bad({ name: 'x', dataSourceId: ds.id, condition: { operator: 'gt', value: 1 }, channels: [{ type: 'pager', url: 'https://x.example.com' }] }, 'channels.0.type');
    const unknownSource = await s.http('POST', '/api/admin/alerts', { body: { name: 'x', dataSourceId: 'aaaaaaaaaaaaaaaaaaaaaaaa', condition: { operator: 'gt', value: 1 } } });
    expect(unknownSource.status).toBe(404);
    const d = await buildDashboard(s, { source: ds, widgets: [{ id: 'k1', type: 'kpi', configuration: { metric: 'count' } }] });
    const unknownWidget = await s.http('POST', '/api/admin/alerts', { body: { ...maxAbove(ds, '/x'), channels: [], widget: { dashboardId: d.id, widgetId: 'nope' } } });
    expect(unknownWidget.status, JSON.stringify(unknownWidget.body)).toBe(404);
    const unknownDashboard = await s.http('POST', '/api/admin/alerts', { body: { ...maxAbove(ds, '/x'), channels: [], widget: { dashboardId: 'aaaaaaaaaaaaaaaaaaaaaaaa', widgetId: 'k1' } } });
    expect(unknownDashboard.status).toBe(404);
  });

  it('refuses channel addresses that could be turned against us, naming the channel', async () => {
    const { ds } = await setup();
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://[::1]/x', 'https://169.254.169.254/latest', 'https://localhost/x', 'https://[fd00::1]/x', 'ftp://example.com/x', 'https://user:pw@example.com/x']) {
      const res = await s.http('POST', '/api/admin/alerts', { body: { ...maxAbove(ds, '/x'), channels: [{ type: 'slack', url: 'https://hooks.slack.com/services/T/B/X' }, { type: 'webhook', url }] } });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.fields[0].path).toBe('channels.1.url');
    }
    expect(await s.app.ctx.conn.models.Alert.countDocuments({ dataSourceId: ds.id })).toBe(0);
  });

  it('answers the rule with each webhook secret once; afterwards addresses are masked and secrets never shown', async () => {
    const { ds, path } = await setup();
    const created = await create({ ...maxAbove(ds, path), channels: [{ type: 'webhook', url: `${rx.url}${path}?token=sekrit` }, { type: 'email', to: ['ops@example.com'] }] });
    expect(created.secrets).toHaveLength(1);
    expect(created.secrets[0].secret).toMatch(/^whsec_/);
    const read = await s.http('GET', `/api/admin/alerts/${created.id}`);
    const list = await s.http('GET', '/api/admin/alerts');
    for (const text of [read.text, list.text]) {
      expect(text).not.toContain('sekrit');
      expect(text).not.toContain(`${rx.url}${path}`);
      expect(text).not.toContain('ops@example.com');
      expect(text).not.toContain(created.secrets[0].secret);
    }
    expect(read.body.channels.map((c: { target: string }) => c.target)).toEqual([`${rx.url}/…`, 'o…@example.com']);
    const patched = await s.http('PATCH', `/api/admin/alerts/${created.id}`, { body: { name: 'Renamed', channels: [{ id: created.channels[0].id, keep: true }] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.name).toBe('Renamed');
    expect(patched.body.channels).toHaveLength(1);
    const removed = await s.http('DELETE', `/api/admin/alerts/${created.id}`);
    expect(removed.status).toBe(200);
    expect((await s.http('GET', `/api/admin/alerts/${created.id}`)).status).toBe(404);
  });

  it('lets editors and admins manage alerts, a limited editor only on its dashboards\' sources; viewers 403, anonymous 401', async () => {
    const { ds } = await setup();
    const { ds: other } = await setup();
    const mine = await buildDashboard(s, { source: ds });
    const limited = await buildPerson(s, 'editor', { dashboardIds: [mine.id] });
    const viewer = await buildPerson(s, 'viewer');
    const editor = await buildPerson(s, 'editor');
    const body = (src: BuiltSource) => ({ ...maxAbove(src, '/roles'), channels: [] });
    expect((await s.http('POST', '/api/admin/alerts', { token: null, body: body(ds) })).status).toBe(401);
    expect((await s.http('GET', '/api/admin/alerts', { token: null })).status).toBe(401);
    expect((await viewer.http('POST', '/api/admin/alerts', { body: body(ds), headers: { origin: s.url } })).status).toBe(403);
    expect((await viewer.http('GET', '/api/admin/alerts')).status).toBe(403);
    const byEditor = await s.http('POST', '/api/admin/alerts', { token: editor.token, body: body(other) });
    expect(byEditor.status).toBe(201);
    expect((await s.http('POST', '/api/admin/alerts', { token: limited.token, body: body(other) })).status).toBe(403);
    const own = await s.http('POST', '/api/admin/alerts', { token: limited.token, body: body(ds) });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const listed = (await s.http('GET', '/api/admin/alerts', { token: limited.token })).body.map((a: { id: string }) => a.id);
    expect(listed).toContain(own.body.id);
    expect(listed).not.toContain(byEditor.body.id);
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/test'], ['GET', '/history']]) {
      const res = await s.http(method, `/api/admin/alerts/${byEditor.body.id}${path}`, { token: limited.token, ...(method === 'PATCH' ? { body: { name: 'x' } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const entries = await activityHandle.of(s.app.ctx).flush().then(() => s.http('GET', '/api/admin/activity?category=admin&objectType=alert'));
    expect(entries.body.map((e: { kind: string }) => e.kind)).toContain('alert.created');
  });
});

describe('evaluated as data arrives', () => {
  it('fires and resolves within 2 s of the ingest answer, signed, once per change (nothing while still firing)', async () => {
    const { ds, path } = await setup();
    const created = await create(maxAbove(ds, path));
    const secret = created.secrets[0].secret as string;
    const firedAt = await ingest(ds, [{ id: 'b', v: 50 }]);
    const [fired] = await eventually(() => rx.on(path).length === 1 && rx.on(path), { timeout: 5_000 });
    expect(fired.at - firedAt).toBeLessThan(2_000);
    expect(fired.json).toMatchObject({ alert: { id: created.id, name: created.name }, state: 'firing', value: 50, source: { id: ds.id, name: ds.name } });
    expect(fired.json.condition).toBe('max of v above 10');
    // Stripe's scheme: t=<seconds>,v1=HMAC-SHA256("<t>.<raw body>") under the channel's secret.
    const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(fired.headers['x-livedash-signature']))!;
    expect(sig).toBeTruthy();
    expect(sig[2]).toBe(crypto.createHmac('sha256', secret).update(`${sig[1]}.${fired.body}`).digest('hex'));
    expect(fired.headers['x-livedash-delivery']).toMatch(/^[0-9a-f]{24}$/);
    // Still firing: more breaking values send nothing.
    await ingest(ds, [{ id: 'c', v: 60 }]);
    await ingest(ds, [{ id: 'c', v: 70 }]);
    await eventually(async () => (await s.http('GET', `/api/admin/alerts/${created.id}`)).body.lastValue === 70, { timeout: 4_000 });
    expect(rx.on(path)).toHaveLength(1);
    // Resolved when no record breaks any more (the records' old values leave the totals).
    const resolvedAt = await ingest(ds, [{ id: 'b', v: 1 }, { id: 'c', v: 2 }]);
    const calls = await eventually(() => rx.on(path).length === 2 && rx.on(path), { timeout: 5_000 });
    expect(calls[1].at - resolvedAt).toBeLessThan(2_000);
    expect(calls[1].json).toMatchObject({ state: 'resolved', value: 2 });
    expect(calls[1].headers['x-livedash-delivery']).not.toBe(fired.headers['x-livedash-delivery']);
    // The receiver has the message a moment before the outbox writes down its answer (and the change its history).
    const history = await eventually(async () => {
      const h = (await s.http('GET', `/api/admin/alerts/${created.id}/history`)).body;
      return h.changes.length === 2 && h.deliveries.every((d: { status: string }) => d.status === 'delivered') && h;
    });
    expect(history.changes.map((c: { to: string }) => c.to)).toEqual(['ok', 'firing']);
    expect(history.deliveries).toHaveLength(2);
  });

  it('sends Slack (text and blocks), Teams (an Adaptive Card) and email, and a test message to every channel', async () => {
    const { ds, path } = await setup();
    const created = await create({
      ...maxAbove(ds, path),
      name: 'Big order',
      channels: [{ type: 'slack', url: `${rx.url}${path}/slack` }, { type: 'teams', url: `${rx.url}${path}/teams` }, { type: 'email', to: ['ops@example.com'] }],
    });
    await ingest(ds, [{ id: 'b', v: 99 }]);
    const [slack] = await eventually(() => rx.on(`${path}/slack`).length === 1 && rx.on(`${path}/slack`));
    expect(slack.json.text).toContain('Big order');
    expect(slack.json.blocks.length).toBeGreaterThan(0);
    const [teams] = await eventually(() => rx.on(`${path}/teams`).length === 1 && rx.on(`${path}/teams`));
    expect(teams.json.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(JSON.stringify(teams.json)).toContain('Big order');
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes('ops@example.com') && m.data.includes('Big order')) ?? null);
    expect(mail.data).toMatch(/Subject: \[LiveDash\] Big order is firing/);
    const test = await s.http('POST', `/api/admin/alerts/${created.id}/test`);
    expect(test.status).toBe(202);
    await eventually(() => rx.on(`${path}/slack`).length === 2 && rx.on(`${path}/teams`).length === 2);
    expect(rx.on(`${path}/slack`)[1].json.text).toContain('[Test]');
    await eventually(() => smtp.mails.filter((m) => m.data.includes('Big order')).length === 2);
  });

  it('limits test messages per person (429 with Retry-After, saying what to do) and marks them as tests on every channel', async () => {
    const { ds, path } = await setup();
    const name = `Drill ${path}`;
    const recipient = `drill${n}@example.com`;
    const created = await create({
      ...maxAbove(ds, path), name,
      channels: [{ type: 'webhook', url: `${rx.url}${path}` }, { type: 'slack', url: `${rx.url}${path}/slack` }, { type: 'teams', url: `${rx.url}${path}/teams` }, { type: 'email', to: [recipient] }],
    });
    const editor = await buildPerson(s, 'editor');
    const other = await buildPerson(s, 'editor');
    const test = (token: string) => s.http('POST', `/api/admin/alerts/${created.id}/test`, { token });
    for (let i = 0; i < 5; i++) expect((await test(editor.token)).status, `test ${i + 1}`).toBe(202);
    const refused = await test(editor.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.error.message).toMatch(/test messages of alerts sent by you: the limit is 5 per 10 minutes\. Try again in \d+ s\. .*History/);
    // Per person: another editor may still send one; nothing more went out for the refused one.
    expect((await test(other.token)).status).toBe(202);
    const hooks = await eventually(() => rx.on(path).length === 6 && rx.on(path));
    await eventually(() => rx.on(`${path}/slack`).length === 6 && rx.on(`${path}/teams`).length === 6);
    const mails = await eventually(() => smtp.mails.filter((m) => m.to.includes(recipient)).length === 6 && smtp.mails.filter((m) => m.to.includes(recipient)));
    // Every channel says it is a test: webhook body and header, Slack and Teams text, email subject and body.
    expect(hooks.every((h) => h.json.test === true && h.headers['x-livedash-test'] === 'true')).toBe(true);
    const note = 'This is a test message, sent with "Send test" on the alert in LiveDash: the alert is not firing.';
    const slack = rx.on(`${path}/slack`)[0].json;
    expect(slack.text).toContain(`[Test] ${name}: test message`);
    expect(slack.text).toContain(note);
    const teams = rx.on(`${path}/teams`)[0].json.attachments[0].content.body.map((block: { text?: string }) => block.text);
    expect(teams).toEqual(expect.arrayContaining([`[Test] ${name}: test message`, note]));
    expect(mails[0].data).toContain(`Subject: [LiveDash] [Test] ${name}: test message`);
    // The body as a reader sees it (quoted-printable undone).
    const body = mails[0].data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    expect(body).toContain(note);
  });

  it('evaluates a rule at most a few times a second, however fast the writes come', async () => {
    const { ds, path } = await setup();
    const created = await create({ ...maxAbove(ds, path), condition: { operator: 'gt', value: 1e9 } });
    const run = alertsHandle.of(s.app.ctx).engine.rules.get(created.id)!;
    const before = run.evaluations;
    const t = Date.now();
    // One after another: each its own write (concurrent ones would be committed together).
    for (let i = 0; i < 40; i++) await ingest(ds, [{ id: `w${i}`, v: i }]);
    // Every write is in the totals: the last evaluation sees the largest value.
    await eventually(() => run.lastValue === 39);
    const seconds = (Date.now() - t) / 1000;
    expect(run.evaluations - before).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 2);
    expect(run.evaluations - before).toBeLessThan(40);
  });

  it('changes state while muted but sends nothing, and sends again once unmuted', async () => {
    const { ds, path } = await setup();
    const created = await create(maxAbove(ds, path, { mutedUntil: new Date(Date.now() + 3_600_000).toISOString() }));
    await ingest(ds, [{ id: 'b', v: 50 }]);
    await eventually(async () => (await s.http('GET', `/api/admin/alerts/${created.id}`)).body.state === 'firing');
    const unmuted = await s.http('PATCH', `/api/admin/alerts/${created.id}`, { body: { mutedUntil: null } });
    expect(unmuted.status).toBe(200);
    await ingest(ds, [{ id: 'b', v: 1 }]);
    const [resolved] = await eventually(() => rx.on(path).length === 1 && rx.on(path));
    // The muted "firing" never went out; the change after unmuting did.
    expect(resolved.json.state).toBe('resolved');
    const history = (await s.http('GET', `/api/admin/alerts/${created.id}/history`)).body;
    expect(history.changes.map((c: { to: string }) => c.to)).toEqual(['ok', 'firing']);
    expect(history.deliveries).toHaveLength(1);
  });

  it('holds for forSeconds before firing, and does not fire when the value goes back within it', async () => {
    const { ds, path } = await setup();
    const created = await create(maxAbove(ds, path, { forSeconds: 1 }));
    // Each value is evaluated before the next comes (evaluations coalesce writes closer than 250 ms).
    const evaluated = (v: number) => eventually(async () => (await s.http('GET', `/api/admin/alerts/${created.id}`)).body.lastValue === v);
    await ingest(ds, [{ id: 'b', v: 50 }]);
    await evaluated(50);
    await ingest(ds, [{ id: 'b', v: 5 }]);
    await evaluated(5);
    const at = await ingest(ds, [{ id: 'b', v: 51 }]);
    const [fired] = await eventually(() => rx.on(path).length === 1 && rx.on(path), { timeout: 4_000 });
    expect(fired.at - at).toBeGreaterThanOrEqual(950);
    expect(fired.json.value).toBe(51);
  });

  it('fires when no data arrives for noDataSeconds, and resolves when data comes', async () => {
    const { ds, path } = await setup();
    const created = await create({ name: 'Quiet', dataSourceId: ds.id, noDataSeconds: 1, filters: [{ field: 'kind', operator: 'eq', value: 'beat' }], channels: [{ type: 'webhook', url: `${rx.url}${path}` }] });
    const [fired] = await eventually(() => rx.on(path).length === 1 && rx.on(path), { timeout: 4_000 });
    expect(fired.json).toMatchObject({ state: 'firing', condition: 'no data for 1 s' });
    // A record the filters leave out is no data.
    await ingest(ds, [{ id: 'x', kind: 'other' }]);
    const at = await ingest(ds, [{ id: 'y', kind: 'beat' }]);
    const calls = await eventually(() => rx.on(path).length === 2 && rx.on(path), { timeout: 3_000 });
    expect(calls[1].json.state).toBe('resolved');
    expect(calls[1].at - at).toBeLessThan(2_000);
    expect((await s.http('GET', `/api/admin/alerts/${created.id}`)).body.state).toBe('ok');
  });

  it('retries a failing receiver with the same delivery id, and follows no redirect', async () => {
    const { ds, path } = await setup();
    rx.answer(path, 503);
    rx.answer(`${path}/r`, 'redirect');
    const created = await create({ ...maxAbove(ds, path), channels: [{ type: 'webhook', url: `${rx.url}${path}` }, { type: 'webhook', url: `${rx.url}${path}/r` }] });
    await ingest(ds, [{ id: 'b', v: 50 }]);
    const calls = await eventually(() => rx.on(path).length === 2 && rx.on(path), { timeout: 5_000 });
    expect(calls[1].headers['x-livedash-delivery']).toBe(calls[0].headers['x-livedash-delivery']);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(900);
    const history = await eventually(async () => {
      const h = (await s.http('GET', `/api/admin/alerts/${created.id}/history`)).body;
      return h.deliveries.every((d: { status: string }) => d.status !== 'pending') && h;
    });
    const byChannel = Object.fromEntries(history.deliveries.map((d: { channelId: string }) => [d.channelId, d]));
    expect(byChannel[created.channels[0].id]).toMatchObject({ status: 'delivered' });
    expect(byChannel[created.channels[0].id].attempts.map((a: { status: number }) => a.status)).toEqual([503, 200]);
    expect(byChannel[created.channels[1].id]).toMatchObject({ status: 'failed' });
    expect(byChannel[created.channels[1].id].attempts[0].message).toMatch(/redirect/);
    expect(rx.on(`${path}/r/moved`)).toHaveLength(0);
  });

  it('shows editors each attempt\'s status and timing, and what the receiver answered to admins only', async () => {
    const { ds, path } = await setup();
    const editor = await buildPerson(s, 'editor');
    // A receiver on an allowed host may be any page there: its words are not an editor's to read.
    rx.answer(path, { status: 500, body: 'db at 10.0.0.7 refused user app' }, { status: 200, body: 'accepted: internal ticket 4711' });
    const created = await create(maxAbove(ds, path));
    await ingest(ds, [{ id: 'b', v: 50 }]);
    const read = (token: string | undefined) => eventually(async () => {
      const h = (await s.http('GET', `/api/admin/alerts/${created.id}/history`, { token })).body;
      return h.deliveries.length === 1 && h.deliveries[0].status === 'delivered' && h;
    });
    const byEditor = await read(editor.token);
    const attempts = byEditor.deliveries[0].attempts;
    expect(attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);
    for (const a of attempts) {
      expect(a.durationMs).toEqual(expect.any(Number));
      expect(a).not.toHaveProperty('answer');
    }
    expect(JSON.stringify(byEditor)).not.toMatch(/10\.0\.0\.7|ticket 4711/);
    expect(attempts[0].message).toMatch(/500/);
    const byAdmin = await read(undefined);
    expect(byAdmin.deliveries[0].attempts.map((a: { answer: string }) => a.answer)).toEqual(['db at 10.0.0.7 refused user app', 'accepted: internal ticket 4711']);
    // Nor does the activity log (admins') carry the receiver's words in its summaries.
    await activityHandle.of(s.app.ctx).flush();
    const entries = (await s.http('GET', '/api/admin/activity?category=alert&objectType=alert')).text;
    expect(entries).toContain(`Alert \\"${created.name}\\": delivered`);
    expect(entries).not.toMatch(/10\.0\.0\.7|ticket 4711/);
  });

  it('refuses at send a name that resolves to a loopback address', async () => {
    const host = os.hostname();
    const resolved = await dns.lookup(host, { all: true });
    // This machine's own name resolves to a loopback address (as /etc/hosts makes it on Debian and in containers).
    expect(resolved.some((a) => isInternalAddress(a.address)), `${host} → ${JSON.stringify(resolved)}`).toBe(true);
    const { ds } = await setup();
    const created = await create({ ...maxAbove(ds, '/x'), channels: [{ type: 'webhook', url: `https://${host}:${rx.hostPort.split(':')[1]}/sneaky` }] });
    await ingest(ds, [{ id: 'b', v: 50 }]);
    const history = await eventually(async () => {
      const h = (await s.http('GET', `/api/admin/alerts/${created.id}/history`)).body;
      return h.deliveries.length === 1 && h.deliveries[0].status === 'failed' && h;
    });
    expect(history.deliveries[0].attempts[0].message).toMatch(/refused.*loopback/);
    expect(rx.calls.filter((c) => c.path === '/sneaky')).toHaveLength(0);
  });
});

const MINUTE = 60_000;

/**
 * A rule over the last 15 minutes (by the records' own date) and one record that leaves that range
 * at the next minute boundary: no write comes after it, only time passes.
 */
async function startSlidingRule() {
  // The record leaves the range at the first minute boundary at least 12 s away: on a fresh clone
  // this file starts beside the heaviest ones, and a write counted a few seconds late must still count.
  const boundary = Math.ceil((Date.now() + 12_000) / MINUTE) * MINUTE;
  // The oldest minute still in the range: the range is the current minute and the 14 before it.
  const at = new Date(boundary - 15 * MINUTE + 500).toISOString();
  const { ds, path } = await setup([]);
  await create({ name: 'Recent orders', dataSourceId: ds.id, metric: 'count', dateField: 'at', range: { kind: 'relative', last: '15m' }, condition: { operator: 'gte', value: 1 }, channels: [{ type: 'webhook', url: `${rx.url}${path}` }] });
  await ingest(ds, [{ id: 'old', at }]);
  return { path, boundary };
}

describe('time passing', () => {
  it('resolves a rule over a sliding range when its records age out, with no new write', async () => {
    const { path, boundary } = slidingRule;
    const [fired] = await eventually(() => rx.on(path).length >= 1 && rx.on(path), { timeout: 5_000 });
    expect(fired.json).toMatchObject({ state: 'firing', value: 1 });
    expect(fired.at).toBeLessThan(boundary);
    const calls = await eventually(() => rx.on(path).length === 2 && rx.on(path), { timeout: Math.max(5_000, boundary - Date.now() + 5_000) });
    expect(calls[1].json).toMatchObject({ state: 'resolved', value: 0 });
    expect(calls[1].at).toBeGreaterThanOrEqual(boundary);
    expect(calls[1].at - boundary).toBeLessThan(2_000);
  }, 90_000);

  it('sends "firing" again every repeatMinutes while it fires, also after another process took the rule over', async () => {
    const { ds, path } = await setup();
    const created = await create(maxAbove(ds, path, { repeatMinutes: 1 }));
    await ingest(ds, [{ id: 'b', v: 50 }]);
    await eventually(async () => rx.on(path).length === 1 && (await s.http('GET', `/api/admin/alerts/${created.id}`)).body.state === 'firing');
    // The last message went out 58 s ago and the lease ran out: whoever takes the rule repeats 2 s later.
    const { Alert } = s.app.ctx.conn.models;
    const notified = Date.now() - MINUTE + 2_000;
    await Alert.updateOne({ _id: created.id }, { $set: { lastNotifiedAt: new Date(notified), lease: { owner: null, until: null } } });
    await alertsHandle.of(s.app.ctx).leases.tick();
    const calls = await eventually(() => rx.on(path).length === 2 && rx.on(path), { timeout: 6_000 });
    expect(calls[1].json).toMatchObject({ state: 'firing', value: 50 });
    expect(calls[1].at).toBeGreaterThanOrEqual(notified + MINUTE);
    expect(calls[1].headers['x-livedash-delivery']).not.toBe(calls[0].headers['x-livedash-delivery']);
    // A repeat is a message, not a change: the history holds one change, the rule still fires.
    const history = (await s.http('GET', `/api/admin/alerts/${created.id}/history`)).body;
    expect(history.changes.map((c: { to: string }) => c.to)).toEqual(['firing']);
    expect(history.deliveries.map((d: { kind: string }) => d.kind)).toEqual(['firing', 'firing']);
    // The next repeat is a minute after this one.
    const saved = await eventually(async () => {
      const doc = await Alert.findById(created.id).lean<{ lastNotifiedAt: Date; state: string }>();
      return doc && doc.lastNotifiedAt.getTime() > notified && doc;
    });
    expect(saved.state).toBe('firing');
    expect(saved.lastNotifiedAt.getTime()).toBeGreaterThanOrEqual(notified + MINUTE);
  });
});

describe('a source past ALERT_MAX_RECORDS', () => {
  it('is not evaluated live: the rule says why, and is evaluated again once the source holds fewer', async () => {
    const { ds, path } = await setup([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    const created = await create({ name: 'Many', dataSourceId: ds.id, metric: 'count', condition: { operator: 'gte', value: 10 }, channels: [{ type: 'webhook', url: `${rx.url}${path}` }] });
    expect(created.problem).toBeNull();
    await ingest(ds, Array.from({ length: MAX_RECORDS }, (_, i) => ({ id: `m${i}`, batch: i < 50 ? 'drop' : 'keep' })));
    const read = async () => (await s.http('GET', `/api/admin/alerts/${created.id}`)).body;
    const parked = await eventually(async () => { const a = await read(); return a.problem !== null && a; });
    expect(parked.problem).toMatch(/too many records to evaluate live.*60/i);
    // 63 records would break "count at least 10", but the rule is not evaluated: its state stays, nothing is sent.
    expect(parked.state).toBe('ok');
    expect((await s.http('GET', '/api/admin/alerts')).body.find((a: { id: string }) => a.id === created.id).problem).toBe(parked.problem);
    const removed = await s.http('POST', `/api/data/sources/${ds.sourceId}/records/delete`, { body: { filters: [{ field: 'batch', operator: 'eq', value: 'drop' }] } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const [fired] = await eventually(() => rx.on(path).length === 1 && rx.on(path));
    expect(fired.json).toMatchObject({ state: 'firing', value: 13 });
    expect((await read()).problem).toBeNull();
    expect(rx.on(path)).toHaveLength(1);
  });
});

describe('delivered once', () => {
  it('sends a change once when the process that decided it died between writing its messages and its state', async () => {
    const { ds, path } = await setup();
    const created = await create(maxAbove(ds, path));
    const engine = alertsHandle.of(s.app.ctx).engine;
    const run = engine.rules.get(created.id)!;
    // What such a process leaves: change 1's "firing" message in the outbox (sent by any process), the rule still "ok" at change 0.
    await engine.enqueue(run, 'firing', 50, run.doc.seq + 1, Date.now());
    await eventually(() => rx.on(path).length === 1);
    // The holder decides the same change again: its message is the one already written.
    await ingest(ds, [{ id: 'b', v: 50 }]);
    const history = await eventually(async () => {
      const h = (await s.http('GET', `/api/admin/alerts/${created.id}/history`)).body;
      return h.changes.length === 1 && h.deliveries.every((d: { status: string }) => d.status !== 'pending') && h;
    });
    expect(history.changes[0]).toMatchObject({ from: 'ok', to: 'firing' });
    expect(history.deliveries).toHaveLength(1);
    expect(rx.on(path)).toHaveLength(1);
  });
});
