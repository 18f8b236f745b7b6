import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDto } from '@common/schemas/report';
import { buildDashboard, buildPerson, buildSource, type BuiltPerson } from '../../test/factories';
import { eventually } from '../../test/eventually';
import { startTestServer, type TestServer } from '../../test/harness';
import { startReceiver, type TestReceiver } from '../../test/receiver';
import { reportsHandle } from '../runtime';

/*
 * The reports API: who may do what (editors and admins; a person limited to chosen dashboards only
 * on those; viewers nothing), bad input answered with a 400 a person can act on (the 5-minute floor
 * named), the next run in every answer, channels masked, and a dashboard that goes taking its
 * reports with it.
 */

let s: TestServer;
let rx: TestReceiver;
let mine: string;
let others: string;
let editor: BuiltPerson;
let limited: BuiltPerson;
let viewer: BuiltPerson;

beforeAll(async () => {
  rx = await startReceiver();
  s = await startTestServer({ OUTBOUND_ALLOWED_HOSTS: rx.hostPort });
  const source = await buildSource(s, { name: 'Orders', records: [{ team: 'red', n: 1 }] });
  mine = (await buildDashboard(s, { source, name: 'Mine', widgets: [{ id: 'k', type: 'kpi', configuration: { metric: 'count' } }] })).id;
  others = (await buildDashboard(s, { source, name: 'Others' })).id;
  editor = await buildPerson(s, 'editor');
  limited = await buildPerson(s, 'editor', { dashboardIds: [mine] });
  viewer = await buildPerson(s, 'viewer');
  // The renderer loads on a process's first drawing (seconds on a busy machine): loaded here, so the waits below wait only for runs.
  expect((await s.http('POST', '/api/admin/reports/preview', { body: { dashboardId: mine, width: 480 } })).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await s?.close();
  await rx?.close();
});

const report = (over: Record<string, unknown> = {}) => ({
  name: 'Weekly', dashboardId: mine, schedule: { everyMinutes: 60 }, formats: ['png'], channels: [{ type: 'webhook', url: `${rx.url}/hook` }], ...over,
});
const errorOf = (res: { body: { error?: { message: string; code: string } } }) => res.body.error ?? { message: 'no error', code: 'none' };

describe('the reports API', () => {
  it('creates a report with its next run, its schedule in words, channels masked and the webhook secret this once', async () => {
    const res = await editor.http('POST', '/api/admin/reports', {
      body: report({ schedule: { cron: '0 8 * * 1-5', timezone: 'Europe/Berlin' }, formats: ['png', 'pdf', 'csv'], channels: [{ type: 'email', to: ['ops@example.com'] }, { type: 'slack', url: `${rx.url}/slack/secret-path` }, { type: 'webhook', url: `${rx.url}/hook` }] }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const r = res.body;
    expect(r).toMatchObject({ name: 'Weekly', dashboardId: mine, dashboardName: 'Mine', tabId: null, width: 1440, theme: 'light', paper: 'A4', timezone: 'UTC', paused: false, scheduleText: 'every weekday at 08:00 Berlin', lastDelivery: null });
    const next = new Date(r.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', weekday: 'short' }).format(next)).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 08:00$/);
    expect(r.channels.map((c: { target: string }) => c.target)).toEqual(['o…@example.com', `${rx.url}/…`, `${rx.url}/…`]);
    expect(JSON.stringify(r.channels)).not.toContain('secret-path');
    expect(r.secrets).toHaveLength(1);
    expect(r.secrets[0].secret).toMatch(/^whsec_/);
    const again = (await editor.http('GET', `/api/admin/reports/${r.id}`)).body;
    expect(again).not.toHaveProperty('secrets');
    expect(JSON.stringify(again)).not.toMatch(/secret-path|whsec_|ops@/);
  });

  it('refuses a schedule under 5 minutes, naming the minimum, and other bad input with the field at fault', async () => {
    const post = (over: Record<string, unknown>) => editor.http('POST', '/api/admin/reports', { body: report(over) });
    const every = await post({ schedule: { everyMinutes: 4 } });
    expect(every.status).toBe(400);
    expect(errorOf(every).message).toMatch(/everyMinutes must be at least 5/);
    const cron = await post({ schedule: { cron: '*/2 * * * *' } });
    expect(cron.status).toBe(400);
    expect(errorOf(cron).message).toMatch(/2 minutes apart.*at most every 5 minutes/);
    expect(errorOf(await post({ schedule: { cron: '0 8 * * 1-5', timezone: 'Mars/Olympus' } })).message).toMatch(/schedule\.timezone/);
    expect(errorOf(await post({ schedule: { cron: 'every monday' } })).message).toMatch(/five-field cron/);
    expect(errorOf(await post({ timezone: 'Nowhere' })).message).toMatch(/timezone/);
    expect(errorOf(await post({ formats: [] })).message).toMatch(/formats/);
    expect(errorOf(await post({ formats: ['gif'] })).message).toMatch(/png, pdf, csv/);
    expect(errorOf(await post({ channels: [] })).message).toMatch(/at least one channel/);
    expect(errorOf(await post({ width: 100 })).message).toMatch(/width must be at least 480/);
    expect(errorOf(await post({ paper: 'A3' })).message).toMatch(/paper is A4 or Letter/);
    expect(errorOf(await post({ tabId: 'nope' })).message).toMatch(/no tab nope/);
    const refused = await post({ channels: [{ type: 'webhook', url: 'http://10.0.0.1/hook' }] });
    expect(refused.status).toBe(400);
    expect(errorOf(refused).message).toMatch(/channels\.0\.url/);
    expect((await post({ dashboardId: 'aaaaaaaaaaaaaaaaaaaaaaaa' })).status).toBe(404);
    for (const r of [every, cron, refused]) expect(errorOf(r).code).toBe('validation_failed');
  });

  it('counts the next run again when the schedule changes or the report is paused', async () => {
    const r = (await editor.http('POST', '/api/admin/reports', { body: report() })).body as ReportDto;
    const changed = (await editor.http('PATCH', `/api/admin/reports/${r.id}`, { body: { schedule: { everyMinutes: 5 } } })).body as ReportDto;
    expect(Date.parse(changed.nextRunAt!) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(changed.scheduleText).toBe('every 5 minutes');
    const paused = (await editor.http('PATCH', `/api/admin/reports/${r.id}`, { body: { paused: true } })).body as ReportDto;
    expect(paused.nextRunAt).toBeNull();
    expect(((await editor.http('PATCH', `/api/admin/reports/${r.id}`, { body: { paper: 'Letter' } })).body as ReportDto).paper).toBe('Letter');
    const resumed = (await editor.http('PATCH', `/api/admin/reports/${r.id}`, { body: { paused: false, channels: [{ id: r.channels[0].id, keep: true }, { type: 'teams', url: `${rx.url}/teams` }] } })).body as ReportDto;
    expect(resumed.nextRunAt).not.toBeNull();
    expect(resumed.channels.map((c) => c.type)).toEqual(['webhook', 'teams']);
    const floor = await editor.http('PATCH', `/api/admin/reports/${r.id}`, { body: { schedule: { cron: '0,1 * * * *' } } });
    expect(floor.status).toBe(400);
    expect(errorOf(floor).message).toMatch(/at most every 5 minutes/);
  });

  it('lets editors and admins in, viewers nowhere, and a limited person only at the reports of its dashboards', async () => {
    const theirs = (await s.http('POST', '/api/admin/reports', { body: report({ dashboardId: others, name: 'Theirs' }) })).body as ReportDto;
    const own = (await limited.http('POST', '/api/admin/reports', { body: report({ name: 'Own' }) })).body as ReportDto;
    expect(own.id).toBeTruthy();
    expect((await viewer.http('GET', '/api/admin/reports')).status).toBe(403);
    expect((await viewer.http('POST', '/api/admin/reports', { body: report() })).status).toBe(403);
    const listed = (await limited.http('GET', '/api/admin/reports')).body as ReportDto[];
    expect(listed.every((r) => r.dashboardId === mine)).toBe(true);
    expect(listed.map((r) => r.id)).toContain(own.id);
    const unknown = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    const calls: [string, string, unknown?][] = [['GET', ''], ['PATCH', '', { name: 'Mine now' }], ['POST', '/send'], ['GET', '/deliveries'], ['DELETE', '']];
    for (const [method, tail, body] of calls) {
      const res = await limited.http(method, `/api/admin/reports/${theirs.id}${tail}`, body ? { body } : {});
      const none = await limited.http(method, `/api/admin/reports/${unknown}${tail}`, body ? { body } : {});
      expect([res.status, errorOf(res).message.replace(theirs.id, '<id>')], `${method} ${tail}`).toEqual([404, errorOf(none).message.replace(unknown, '<id>')]);
    }
    // Moving its own report to another's dashboard answers as an unknown dashboard.
    expect((await limited.http('PATCH', `/api/admin/reports/${own.id}`, { body: { dashboardId: others } })).status).toBe(404);
    expect((await limited.http('POST', '/api/admin/reports/preview', { body: { dashboardId: others } })).status).toBe(404);
    expect((await s.http('GET', `/api/admin/reports/${theirs.id}`)).body.name).toBe('Theirs');
  });

  it('sends now at once (202), and a dashboard that goes takes its reports, their runs and their files with it', async () => {
    const doomed = await buildDashboard(s, { name: 'Doomed', widgets: [{ id: 'k', type: 'kpi', configuration: { metric: 'count' } }] });
    const r = (await editor.http('POST', '/api/admin/reports', { body: report({ dashboardId: doomed.id, formats: ['csv'] }) })).body as ReportDto;
    const sent = await editor.http('POST', `/api/admin/reports/${r.id}/send`);
    expect(sent.status).toBe(202);
    const { models } = reportsHandle.of(s.app.ctx);
    await eventually(async () => (await models.ReportFile.countDocuments({ reportId: r.id })) > 0, { timeout: 30_000, interval: 100 });
    expect((await editor.http('DELETE', `/api/admin/dashboards/${doomed.id}`)).status).toBe(200);
    await eventually(async () => (await editor.http('GET', `/api/admin/reports/${r.id}`)).status === 404, { interval: 100 });
    await eventually(async () => (await models.ReportFile.countDocuments({ reportId: r.id })) === 0 && (await models.ReportRun.countDocuments({ reportId: r.id })) === 0, { interval: 100 });
    expect(await models.ReportFileChunk.countDocuments({})).toBe(await models.ReportFile.find({}).lean().then((heads) => heads.reduce((n, h) => n + h.chunks, 0)));
  }, 60_000);

  it('draws a live preview of the picture for the form', async () => {
    const res = await fetch(`${s.url}/api/admin/reports/preview`, { method: 'POST', headers: { cookie: editor.cookie, 'content-type': 'application/json', origin: s.url }, body: JSON.stringify({ dashboardId: mine, width: 640 }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(640);
  }, 30_000);
});
