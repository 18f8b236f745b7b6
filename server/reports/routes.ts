import type Router from '@koa/router';
import { ObjectIdParam } from '@common/ids';
import { CreateReport, PreviewReport, UpdateReport } from '@common/schemas/report';
import { about, activity, attachmentHeader, canonicalParams, NotFoundError, signedLinksOf, validate } from '../core';
import { askerOfRequest, principalOf, resourceRouter } from '../access';
import { FILE_LINK_PURPOSE } from './deliver';
import { readFile } from './files';
import type { ReportsRuntime } from './runtime';
import { createReport, deleteReport, getReport, listReports, previewReport, reportDeliveries, sendReportNow, updateReport } from './service';

/** A file's link: `<token>.<ext>`, the token signed for the file's id, expiry and extension. */
const FILE_NAME = /^([0-9a-f]{24}-[0-9a-z]{1,12}-[0-9a-f]{32})\.(png|pdf|csv)$/;

/**
 * /api/admin/reports: editors and admins (a person limited to chosen dashboards: the reports of
 * its dashboards, through the access policy). The files a report sent are public at their signed
 * links, /api/reports/files/<token>.<ext>, until they go (REPORT_FILES_DAYS).
 */
export function reportsRouter(rt: ReportsRuntime): Router {
  const { router, auth, adminJson } = resourceRouter(rt.app);
  const reportId = canonicalParams({ id: ObjectIdParam }, 'Report');

  router.get('/admin/reports', auth.editor(), about({ summary: 'The reports one may use, each with its schedule in words, next run and last delivery', answer: 'Report[]' }), async (c) => {
    c.body = await listReports(rt, askerOfRequest(c));
  });

  router.post(
    '/admin/reports',
    auth.editor(),
    about({ summary: 'Schedule a report of a dashboard tab (picture, PDF, CSV) to email, Slack, Teams or webhooks; each webhook channel\'s signing secret is in this answer only', answer: 'Report with nextRunAt and channel secrets', status: 201, activity: activity('report.created', 'report', 'created report', 'answer') }),
    adminJson(),
    validate({ body: CreateReport }, async (c, { body }) => {
      c.status = 201;
      c.set('Cache-Control', 'no-store');
      c.body = await createReport(rt, askerOfRequest(c), body, principalOf(c)?.user?.id ?? null);
    }),
  );

  router.post(
    '/admin/reports/preview',
    auth.editor(),
    about({ summary: 'The picture a report of these settings would send now (PNG; nothing kept or sent)', answer: 'image/png' }),
    adminJson(),
    validate({ body: PreviewReport }, async (c, { body }) => {
      c.set('Cache-Control', 'no-store');
      c.type = 'image/png';
      c.body = await previewReport(rt, askerOfRequest(c), body);
    }),
  );

  router.get('/admin/reports/:id', auth.editor(), about({ summary: 'One report with its next run and last delivery', answer: 'Report' }), reportId, async (c) => {
    c.body = await getReport(rt, askerOfRequest(c), c.params.id);
  });

  router.patch(
    '/admin/reports/:id',
    auth.editor(),
    about({ summary: 'Change a report (schedule, formats, channels, filters, pause…); its next run is counted again', answer: 'Report', activity: activity('report.updated', 'report', 'updated report', 'param:id') }),
    reportId,
    adminJson(),
    validate({ body: UpdateReport }, async (c, { body }) => {
      c.body = await updateReport(rt, askerOfRequest(c), c.params.id, body);
    }),
  );

  router.delete('/admin/reports/:id', auth.editor(), about({ summary: 'Delete a report, its unsent deliveries and its files (their links answer 404)', answer: '{success: true}', activity: activity('report.deleted', 'report', 'deleted report', 'param:id') }), reportId, async (c) => {
    await deleteReport(rt, askerOfRequest(c), c.params.id);
    c.body = { success: true };
  });

  router.post('/admin/reports/:id/send', auth.editor(), about({ summary: 'Send a report now, outside its schedule; answers at once (the delivery log follows the run)', answer: '{id, requestedAt}', status: 202, activity: activity('report.sendRequested', 'report', 'asked for a run now of report', 'param:id') }), reportId, async (c) => {
    c.status = 202;
    c.body = await sendReportNow(rt, askerOfRequest(c), c.params.id);
  });

  router.get('/admin/reports/:id/deliveries', auth.editor(), about({ summary: 'A report\'s deliveries per run and channel, newest first (the last 100)', answer: 'ReportDelivery[]' }), reportId, async (c) => {
    c.body = await reportDeliveries(rt, askerOfRequest(c), c.params.id);
  });

  // The link is the credential: a tampered, expired or removed file answers the same 404.
  router.get('/reports/files/:file', auth.public(), about({ summary: 'A file a report sent, at its signed link, until it expires', answer: 'the PNG, PDF or CSV' }), async (c) => {
    const m = FILE_NAME.exec(c.params.file);
    const target = m ? (await signedLinksOf(rt.app)).verify(FILE_LINK_PURPOSE, m[1], m[2]) : null;
    const kept = target ? await readFile(rt.models, target.id) : null;
    if (!m || !kept || kept.head.format !== m[2]) throw NotFoundError('Report file');
    const seconds = Math.max(0, Math.floor((kept.head.expiresAt.getTime() - Date.now()) / 1000));
    c.set('Cache-Control', `private, max-age=${Math.min(seconds, 3600)}`);
    c.set('Referrer-Policy', 'no-referrer');
    c.set('Content-Disposition', kept.head.format === 'png' ? attachmentHeader(kept.head.filename).replace(/^attachment/, 'inline') : attachmentHeader(kept.head.filename));
    c.type = kept.head.contentType;
    c.body = kept.bytes;
  });

  return router;
}
