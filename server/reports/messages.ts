import type { ReportWebhookBody } from '@common/schemas/report';
import type { ChannelMail, ChannelMessage, MailFile } from '../core';
import type { RunFile } from './models';

/*
 * How a report reads on each channel type. Slack, Teams and webhooks carry signed links to the
 * files (never the files); an email carries the files themselves and the picture inline. The KPI
 * numbers are always text, so a message is read without its picture.
 */

/** What a run's message is made of. */
export interface ReportMessageParts {
  body: ReportWebhookBody;
  /** When the run was drawn, in the report's time zone ("30 Nov 2026, 08:00 CET"). */
  atText: string;
  rangeText: string;
  /** The picture's signed link, when one was drawn. */
  pictureUrl: string | null;
  /** The picture and the chosen files, read when an email is made. */
  mailFiles(): Promise<{ picture: MailFile | null; attached: MailFile[] }>;
}

const FORMAT_WORDS: Record<string, string> = { png: 'Picture (PNG)', pdf: 'PDF', csv: 'CSV' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** Slack's mrkdwn treats these three as markup. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const kpiLines = (p: ReportMessageParts) => p.body.kpis.map((k) => `${k.title}: ${k.value}`);

/** Slack incoming webhook: Block Kit with the numbers as text, the picture as an image block, a button to the dashboard. */
export function slackBody(p: ReportMessageParts): string {
  const b = p.body;
  const fields = b.kpis.slice(0, 50).map((k) => ({ type: 'mrkdwn', text: `*${slackEscape(k.title)}*\n${slackEscape(k.value)}` }));
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: b.report.name.slice(0, 150) } },
    { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(b.dashboard.name)}*${p.rangeText ? ` · ${slackEscape(p.rangeText)}` : ''}\n${slackEscape(p.atText)}` } },
  ];
  // A section holds at most 10 fields.
  for (let i = 0; i < fields.length; i += 10) blocks.push({ type: 'section', fields: fields.slice(i, i + 10) });
  if (p.pictureUrl) blocks.push({ type: 'image', image_url: p.pictureUrl, alt_text: `${b.dashboard.name}: ${kpiLines(p).join(', ') || 'the dashboard'}`.slice(0, 2000) });
  const links = b.files.filter((f) => f.format !== 'png').map((f) => `<${f.url}|${FORMAT_WORDS[f.format]}>`);
  if (links.length) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `Files (links expire): ${links.join(' · ')}` }] });
  blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the live dashboard' }, url: b.dashboard.url, style: 'primary' }] });
  return JSON.stringify({ text: `${b.report.name} — ${b.dashboard.name}${b.kpis.length ? `: ${kpiLines(p).join(', ')}` : ''}`.slice(0, 3000), blocks });
}

/** Microsoft Teams incoming webhook (Workflows): a message carrying an Adaptive Card of the same. */
export function teamsBody(p: ReportMessageParts): string {
  const b = p.body;
  const body: unknown[] = [
    { type: 'TextBlock', size: 'Large', weight: 'Bolder', text: b.report.name, wrap: true },
    { type: 'TextBlock', isSubtle: true, spacing: 'None', text: `${b.dashboard.name}${p.rangeText ? ` · ${p.rangeText}` : ''} · ${p.atText}`, wrap: true },
  ];
  if (b.kpis.length) body.push({ type: 'FactSet', facts: b.kpis.map((k) => ({ title: k.title, value: k.value })) });
  if (p.pictureUrl) body.push({ type: 'Image', url: p.pictureUrl, altText: `${b.dashboard.name}: ${kpiLines(p).join(', ')}`, size: 'Stretch' });
  const actions = [
    { type: 'Action.OpenUrl', title: 'Open the live dashboard', url: b.dashboard.url },
    ...b.files.filter((f) => f.format !== 'png').map((f) => ({ type: 'Action.OpenUrl', title: `Download ${FORMAT_WORDS[f.format]}`, url: f.url })),
  ];
  return JSON.stringify({
    type: 'message',
    summary: `${b.report.name} — ${b.dashboard.name}`,
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body, actions },
      },
    ],
  });
}

/** The email: plain text and HTML with the numbers as text and the picture inline; the chosen files attached. */
export async function reportMail(p: ReportMessageParts): Promise<ChannelMail> {
  const b = p.body;
  const { picture, attached } = await p.mailFiles();
  const head = `${b.dashboard.name}${p.rangeText ? ` · ${p.rangeText}` : ''} · ${p.atText}`;
  const attachedWords = attached.map((f) => f.filename).join(', ');
  const text = [
    b.report.name, head, '',
    ...kpiLines(p),
    ...(b.kpis.length ? [''] : []),
    ...(attachedWords ? [`Attached: ${attachedWords}`] : []),
    `Open the live dashboard: ${b.dashboard.url}`, '',
  ].join('\n');
  const rows = b.kpis.map((k) => `<tr><td style="padding:4px 16px 4px 0;color:#555">${escapeHtml(k.title)}</td><td style="padding:4px 0;font-size:18px;font-weight:bold">${escapeHtml(k.value)}</td></tr>`).join('');
  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f1f1f">',
    `<h2 style="margin:0 0 4px">${escapeHtml(b.report.name)}</h2>`,
    `<p style="margin:0 0 16px;color:#555">${escapeHtml(head)}</p>`,
    rows ? `<table role="presentation" style="border-collapse:collapse;margin-bottom:16px">${rows}</table>` : '',
    picture ? `<p><img src="cid:${picture.cid}" alt="${escapeHtml(`${b.dashboard.name}: ${kpiLines(p).join(', ')}`)}" style="max-width:100%;border:1px solid #ddd"></p>` : '',
    attachedWords ? `<p style="color:#555">Attached: ${escapeHtml(attachedWords)}</p>` : '',
    `<p><a href="${escapeHtml(b.dashboard.url)}">Open the live dashboard</a></p>`,
    '</body></html>',
  ].join('');
  return { subject: `[LiveDash] ${b.report.name}`, text, html, files: [...(picture ? [picture] : []), ...attached] };
}

/** A report's message in the shape of each channel type. */
export function reportMessage(p: ReportMessageParts): ChannelMessage {
  return {
    post: (type) => (type === 'slack' ? slackBody(p) : type === 'teams' ? teamsBody(p) : JSON.stringify(p.body)),
    email: () => reportMail(p),
  };
}

/** A run's file as a mail attachment. */
export const asMailFile = (f: RunFile, bytes: Buffer, cid?: string): MailFile => ({ filename: f.filename, contentType: f.contentType, content: bytes, ...(cid ? { cid } : {}) });
