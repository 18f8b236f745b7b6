import crypto from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvFileName } from '@common/csv';
import type { ReportDeliveryDto, ReportDto, ReportWebhookBody } from '@common/schemas/report';
import { signedLinksOf } from '../../core';
import { buildDashboard, buildSource } from '../../test/factories';
import { eventually } from '../../test/eventually';
import { startTestServer, type TestServer } from '../../test/harness';
import { startReceiver, type TestReceiver } from '../../test/receiver';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { pdfText, pngInfo } from '../../test/reportFiles';
import { FILE_LINK_PURPOSE } from '../deliver';
import { DRAW_RETRY_MS } from '../run';
import { reportsHandle } from '../runtime';

/*
 * A report sent for real: to an SMTP server, Slack- and Teams-shaped receivers and a webhook on
 * loopback. Every file is opened and checked where it arrives — the picture with ImageMagick, the
 * PDF's text with pdftotext, the CSV's rows — and the locked filter holds in all three. The files'
 * signed links answer only untouched and in time; failed sends are retried with the same id.
 */

let s: TestServer;
let rx: TestReceiver;
let smtp: TestSmtpServer;
let dashboardId: string;
const DASHBOARD = 'Team "Red" orders';

beforeAll(async () => {
  rx = await startReceiver();
  smtp = await startSmtpServer();
  s = await startTestServer({ OUTBOUND_ALLOWED_HOSTS: rx.hostPort, SMTP_URL: smtp.url, MAIL_FROM: 'LiveDash <dash@example.com>', REPORTS_TICK_MS: '200' });
  const records = [
    { id: 1, team: 'red', amount: 10, customer: 'Ada' }, { id: 2, team: 'red', amount: 20, customer: 'Bea' }, { id: 3, team: 'red', amount: 12, customer: 'Cy' },
    { id: 4, team: 'blue', amount: 500, customer: 'Zed' }, { id: 5, team: 'blue', amount: 700, customer: 'Yul' },
  ];
  const source = await buildSource(s, { name: 'Orders', primaryKey: 'id', records });
  const d = await buildDashboard(s, {
    source, name: DASHBOARD, published: true,
    widgets: [
      { id: 'count', name: 'Orders', type: 'kpi', configuration: { metric: 'count' }, layout: { x: 0, y: 0, w: 3, h: 2 } },
      { id: 'sum', name: 'Revenue', type: 'kpi', configuration: { metric: 'sum', valueField: 'amount' }, layout: { x: 3, y: 0, w: 3, h: 2 } },
      { id: 'bar', name: 'By team', type: 'bar', configuration: { groupField: 'team', topN: 5 }, layout: { x: 6, y: 0, w: 6, h: 4 } },
      { id: 'rows', name: 'Orders list', type: 'table', configuration: {}, layout: { x: 0, y: 4, w: 12, h: 4 } },
    ],
  });
  dashboardId = d.id;
  // The renderer loads on a process's first drawing (seconds on a busy machine): loaded here, so the waits below wait only for runs.
  expect((await s.http('POST', '/api/admin/reports/preview', { body: { dashboardId, width: 480 } })).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await s?.close();
  await rx?.close();
  await smtp?.close();
});

const deliveriesOf = async (id: string) => (await s.http<ReportDeliveryDto[]>('GET', `/api/admin/reports/${id}/deliveries`)).body;
const channels = () => [
  { type: 'email', to: ['boss@example.com'] },
  { type: 'slack', url: `${rx.url}/slack` },
  { type: 'teams', url: `${rx.url}/teams` },
  { type: 'webhook', url: `${rx.url}/hook` },
];

const csvRows = (bytes: Buffer) => bytes.toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);

describe('a report sent to email, Slack, Teams and a webhook', () => {
  let reportId = '';
  let secret = '';
  let mail: ParsedMail;
  let hook: ReportWebhookBody;

  beforeAll(async () => {
    const made = await s.http('POST', '/api/admin/reports', {
      body: {
        name: 'Red team daily', dashboardId, schedule: { cron: '0 8 * * 1-5', timezone: 'Europe/Berlin' }, formats: ['png', 'pdf', 'csv'], width: 960,
        filters: [{ field: 'team', operator: 'eq', value: 'red' }], channels: channels(),
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    reportId = made.body.id;
    secret = made.body.secrets[0].secret;
    const sent = await s.http('POST', `/api/admin/reports/${reportId}/send`);
    expect(sent.status).toBe(202);
    const all = await eventually(async () => {
      const d = await deliveriesOf(reportId);
      return d.length === 4 && d.every((x) => x.status === 'sent') ? d : null;
    }, { timeout: 90_000, interval: 200 });
    expect(new Set(all.map((d) => d.runId)).size).toBe(1);
    expect(all[0].files.map((f) => f.format).sort()).toEqual(['csv', 'pdf', 'png']);
    // The HTML as sent (mailparser would turn cid: references into data: URLs).
    mail = await simpleParser(smtp.mails.find((m) => m.to.includes('boss@example.com'))!.data, { skipImageLinks: true });
    hook = rx.on('/hook')[0].json;
  }, 180_000);

  it('sends the webhook its body, signed, with each file at a link that serves exactly the bytes it describes', async () => {
    const call = rx.on('/hook')[0];
    expect(hook).toMatchObject({ report: { id: reportId, name: 'Red team daily' }, dashboard: { id: dashboardId, name: DASHBOARD } });
    expect(Date.parse(hook.at)).toBeGreaterThan(0);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(call.headers['x-livedash-signature']))!;
    expect(v1).toBe(crypto.createHmac('sha256', secret).update(`${t}.${call.body}`).digest('hex'));
    expect(call.headers['x-livedash-delivery']).toMatch(/^[0-9a-f]{24}$/);
    expect(hook.kpis).toEqual(expect.arrayContaining([expect.objectContaining({ value: '3' }), expect.objectContaining({ value: expect.stringMatching(/^42(\.0+)?$/) })]));
    expect(hook.files.map((f) => f.format).sort()).toEqual(['csv', 'pdf', 'png']);
    for (const f of hook.files) {
      expect(f.url).toMatch(new RegExp(`/api/reports/files/[0-9a-z-]+\\.${f.format}$`));
      const res = await fetch(f.url);
      expect(res.status, f.url).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(f.bytes);
      expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
      expect(res.headers.get('content-type')).toMatch(f.format === 'png' ? /^image\/png/ : f.format === 'pdf' ? /^application\/pdf/ : /^text\/csv/);
    }
  });

  it('draws the picture at the report\'s width, not blank, and the PDF and CSV hold only the locked records', async () => {
    const file = async (format: string) => Buffer.from(await (await fetch(hook.files.find((f) => f.format === format)!.url)).arrayBuffer());
    const picture = await pngInfo(await file('png'));
    expect(picture).toMatchObject({ format: 'PNG', width: 960 });
    expect(picture.height).toBeGreaterThan(200);
    expect(picture.colors).toBeGreaterThan(20);
    expect(picture.deviation).toBeGreaterThan(0.01);
    const { text } = await pdfText(await file('pdf'));
    expect(text).toContain(DASHBOARD);
    expect(text).toMatch(/Orders/);
    expect(text).toMatch(/\bAda\b/);
    expect(text).not.toMatch(/\b(Zed|Yul|blue)\b/);
    const rows = csvRows(await file('csv'));
    expect(rows.length).toBe(4); // header and the three red orders
    expect(rows.slice(1).every((r) => /\bred\b/.test(r))).toBe(true);
    expect(rows.join('\n')).not.toMatch(/\b(blue|Zed|Yul)\b/);
  });

  it('sends Slack Block Kit: the numbers as text, the picture as an image block at its link, a button to the live dashboard', async () => {
    const slack = rx.on('/slack')[0].json;
    expect(slack.text).toContain('Red team daily');
    const types = slack.blocks.map((b: { type: string }) => b.type);
    expect(types[0]).toBe('header');
    expect(slack.blocks[0].text.text.length).toBeLessThanOrEqual(150);
    const fields = slack.blocks.filter((b: { type: string }) => b.type === 'section').flatMap((b: { fields?: { text: string }[] }) => b.fields ?? []);
    expect(fields.every((f: { type: string }) => f.type === 'mrkdwn')).toBe(true);
    expect(fields.map((f: { text: string }) => f.text).join('\n')).toMatch(/\*Orders\*\n3/);
    const image = slack.blocks.find((b: { type: string }) => b.type === 'image');
    expect(image.alt_text).toMatch(/Orders: 3/);
    expect(image.image_url).toBe(hook.files.find((f) => f.format === 'png')!.url);
    expect((await fetch(image.image_url)).headers.get('content-type')).toMatch(/^image\/png/);
    const button = slack.blocks.find((b: { type: string }) => b.type === 'actions').elements[0];
    expect(button).toMatchObject({ type: 'button', url: hook.dashboard.url });
    expect(hook.dashboard.url).toBe(`${s.app.url}/dashboards/${dashboardId}`);
  });

  it('sends Teams an Adaptive Card of the same', async () => {
    const teams = rx.on('/teams')[0].json;
    expect(teams.type).toBe('message');
    const card = teams.attachments[0];
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    const facts = card.content.body.find((b: { type: string }) => b.type === 'FactSet').facts;
    expect(facts).toEqual(expect.arrayContaining([{ title: 'Orders', value: '3' }]));
    expect(card.content.body.find((b: { type: string }) => b.type === 'Image').url).toBe(hook.files.find((f) => f.format === 'png')!.url);
    expect(card.content.actions[0]).toMatchObject({ type: 'Action.OpenUrl', url: hook.dashboard.url });
  });

  it('emails HTML with the picture inline and the numbers as text, the files attached under the dashboard\'s name', async () => {
    expect(mail.subject).toBe('[LiveDash] Red team daily');
    expect(mail.text).toMatch(/Orders: 3/);
    expect(mail.html).toMatch(/Orders/);
    const inline = mail.attachments.find((a) => a.cid);
    expect(mail.html).toContain(`cid:${inline!.cid}`);
    expect(inline!.contentType).toBe('image/png');
    const attached = mail.attachments.filter((a) => !a.cid);
    // Named as the dashboard's own Export CSV names its file (safe for any name: the quotes become _).
    const base = csvFileName(DASHBOARD).replace(/\.csv$/, '');
    expect(base).toBe('Team _Red_ orders');
    expect(attached.map((a) => a.filename).sort()).toEqual([`${base}.csv`, `${base}.pdf`, `${base}.png`]);
    expect((await pngInfo(attached.find((a) => a.filename!.endsWith('.png'))!.content)).width).toBe(960);
    expect((await pdfText(attached.find((a) => a.filename!.endsWith('.pdf'))!.content)).text).toContain(DASHBOARD);
    expect(csvRows(attached.find((a) => a.filename!.endsWith('.csv'))!.content).length).toBe(4);
  });

  it('serves a file only at its untouched link, until it expires', async () => {
    const png = hook.files.find((f) => f.format === 'png')!;
    const token = /files\/([0-9a-z-]+)\.png$/.exec(png.url)![1];
    const base = `${s.url}/api/reports/files`;
    const status = async (p: string) => (await fetch(`${base}/${p}`)).status;
    expect(await status(`${token}.png`)).toBe(200);
    const i = token.length - 3;
    expect(await status(`${token.slice(0, i)}${token[i] === 'a' ? 'b' : 'a'}${token.slice(i + 1)}.png`)).toBe(404);
    expect(await status(`${token}.pdf`)).toBe(404);
    expect(await status('nothing.png')).toBe(404);
    const fileId = token.slice(0, 24);
    // Signed for a time already past: the signature is good, the link has expired.
    const links = await signedLinksOf(s.app.ctx);
    expect(await status(`${links.sign(FILE_LINK_PURPOSE, fileId, new Date(Date.now() - 1000), 'png')}.png`)).toBe(404);
    // The file past its time (the sweep removes it soon after): 404 at once.
    const { ReportFile } = reportsHandle.of(s.app.ctx).models;
    await ReportFile.updateOne({ _id: fileId }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await status(`${token}.png`)).toBe(404);
  });
});

describe('failed sends', () => {
  it('retries a receiver that failed with the same delivery id, and gives up on one that refuses', async () => {
    rx.answer('/flaky', 503);
    rx.answer('/refusing', 404, 404);
    const made = await s.http('POST', '/api/admin/reports', {
      body: { name: 'Flaky', dashboardId, schedule: { everyMinutes: 60 }, formats: ['csv'], channels: [{ type: 'webhook', url: `${rx.url}/flaky` }, { type: 'slack', url: `${rx.url}/refusing` }] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await s.http('POST', `/api/admin/reports/${made.body.id}/send`)).status).toBe(202);
    const settled = await eventually(async () => {
      const d = await deliveriesOf(made.body.id);
      return d.length === 2 && d.every((x) => x.status === 'sent' || x.status === 'failed') ? d : null;
    }, { timeout: 60_000, interval: 200 });
    const flaky = settled.find((d) => d.channel.type === 'webhook')!;
    expect(flaky).toMatchObject({ status: 'sent', attempts: 2, error: null });
    const calls = rx.on('/flaky');
    expect(calls).toHaveLength(2);
    expect(calls[0].headers['x-livedash-delivery']).toBe(calls[1].headers['x-livedash-delivery']);
    const refused = settled.find((d) => d.channel.type === 'slack')!;
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    expect(refused.error).toMatch(/unavailable|404/);
    expect(rx.on('/refusing')).toHaveLength(1);
    // The list says how the last delivery went.
    const listed = (await s.http('GET', `/api/admin/reports/${made.body.id}`)).body;
    expect(['sent', 'failed']).toContain(listed.lastDelivery.status);
  }, 120_000);
});

describe('a drawing that fails', () => {
  it('is recorded in the delivery log with why, tried again later, and given up after the last retry; the server keeps serving', async () => {
    const tab = (id: string) => ({ id, name: 'Main', widgets: [{ id: 'k', name: 'Orders', type: 'kpi', configuration: { metric: 'count' } }] });
    const d = await buildDashboard(s, { name: 'Shifting', configuration: { tabs: [tab('main')] } });
    const made = await s.http('POST', '/api/admin/reports', { body: { name: 'Fragile', dashboardId: d.id, tabId: 'main', schedule: { everyMinutes: 60 }, formats: ['csv'], channels: [{ type: 'webhook', url: `${rx.url}/fragile` }] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id: string = made.body.id;
    // The tab the report draws goes: the next drawing cannot be made.
    expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { configuration: { tabs: [tab('other')] } } })).status).toBe(200);
    const asked = Date.now();
    expect((await s.http('POST', `/api/admin/reports/${id}/send`)).status).toBe(202);
    const [failed] = await eventually(async () => {
      const all = await deliveriesOf(id);
      return all.length === 1 && all[0].status === 'failed' ? all : null;
    }, { timeout: 30_000, interval: 100 });
    expect(failed).toMatchObject({ reason: 'send', files: [] });
    expect(failed.error).toMatch(/could not be drawn: Tab main of this dashboard/);
    expect(rx.on('/fragile')).toHaveLength(0);
    const { Report, ReportRun } = reportsHandle.of(s.app.ctx).models;
    const run = await ReportRun.findOne({ reportId: id }).lean();
    expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/Tab main/) });
    // Tried again a minute later (the first wait), as the list says.
    const listed = (await s.http<ReportDto>('GET', `/api/admin/reports/${id}`)).body;
    expect(Date.parse(listed.drawRetryAt!) - asked).toBeGreaterThanOrEqual(DRAW_RETRY_MS[0]);
    expect(Date.parse(listed.drawRetryAt!) - Date.now()).toBeLessThanOrEqual(DRAW_RETRY_MS[0]);
    expect(listed.lastDelivery).toMatchObject({ status: 'failed' });
    // After the last retry fails, no more until its next slot.
    await Report.updateOne({ _id: id }, { $set: { drawFailures: DRAW_RETRY_MS.length, drawRetryAt: new Date() } });
    const given = await eventually(async () => {
      const r = await Report.findOne({ _id: id }).lean();
      return r && r.drawFailures === DRAW_RETRY_MS.length + 1 && !r.lease?.owner ? r : null;
    }, { timeout: 30_000, interval: 100 });
    expect(given.drawRetryAt).toBeNull();
    expect((await deliveriesOf(id)).map((x) => [x.reason, x.status])).toEqual([['retry', 'failed'], ['send', 'failed']]);
    // The tab is back: the retry draws and sends, and the failures are forgotten.
    expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { configuration: { tabs: [tab('main')] } } })).status).toBe(200);
    await Report.updateOne({ _id: id }, { $set: { drawRetryAt: new Date() } });
    const sent = await eventually(async () => {
      const all = await deliveriesOf(id);
      return all.length === 3 && all[0].status === 'sent' ? all[0] : null;
    }, { timeout: 30_000, interval: 100 });
    expect(sent).toMatchObject({ reason: 'retry', files: [{ format: 'csv' }] });
    expect(rx.on('/fragile')).toHaveLength(1);
    expect(await Report.findOne({ _id: id }).lean()).toMatchObject({ drawFailures: 0, drawRetryAt: null });
    expect((await s.http('GET', '/api/admin/reports')).status).toBe(200);
  }, 120_000);
});
