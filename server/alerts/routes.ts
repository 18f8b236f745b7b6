import { about, activity } from '../core';
import type Router from '@koa/router';
import { CreateAlert, UpdateAlert } from '@common/schemas/alert';
import { ObjectIdParam, ShareTokenParam } from '@common/ids';
import { canonicalParams, NotFoundError, validate } from '../core';
import { askerOf, askerOfRequest, bearerToken, mayUseDashboard, principalOf, readSessionCookie, resolvePrincipal, resourceRouter } from '../access';
import { isLive, viewCacheOf } from '../publicView';
import { alertHistory, createAlert, deleteAlert, getAlert, listAlerts, testAlert, tileStates, updateAlert, type AlertsRuntime } from './service';

/**
 * /api/admin/alerts: editors and admins (a person limited to chosen dashboards: the rules on its
 * dashboards' sources, through the access policy). The states of tiles tied to rules are public
 * beside the dashboard's view: /api/dashboards/:id/alerts and /api/share/:token/alerts.
 */
export function alertsRouter(rt: AlertsRuntime): Router {
  const { router, auth, adminJson } = resourceRouter(rt.app);
  const alertId = canonicalParams({ id: ObjectIdParam }, 'Alert');
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');
  const token = canonicalParams({ token: ShareTokenParam }, 'Share link');

  router.get('/admin/alerts', auth.editor(), about({ summary: 'The alerts one may use, each with its live value and state', answer: 'Alert[]' }), async (c) => {
    c.body = await listAlerts(rt, askerOfRequest(c));
  });

  router.post('/admin/alerts', auth.editor(), about({ summary: 'Create an alert on a metric of a data source, with its channels; each webhook channel\'s signing secret is in this answer only', answer: 'Alert with channel secrets', status: 201, activity: activity('alert.created', 'alert', 'created alert', 'answer') }), adminJson(), validate({ body: CreateAlert }, async (c, { body }) => {
    c.status = 201;
    c.set('Cache-Control', 'no-store');
    c.body = await createAlert(rt, askerOfRequest(c), body, principalOf(c)?.user?.id ?? null);
  }));

  router.get('/admin/alerts/:id', auth.editor(), about({ summary: 'One alert with its live value and state', answer: 'Alert' }), alertId, async (c) => {
    c.body = await getAlert(rt, askerOfRequest(c), c.params.id);
  });

  router.patch('/admin/alerts/:id', auth.editor(), about({ summary: 'Change an alert (name, metric, condition, channels, mute)', answer: 'Alert', activity: activity('alert.updated', 'alert', 'updated alert', 'param:id') }), alertId, adminJson(), validate({ body: UpdateAlert }, async (c, { body }) => {
    c.body = await updateAlert(rt, askerOfRequest(c), c.params.id, body);
  }));

  router.delete('/admin/alerts/:id', auth.editor(), about({ summary: 'Delete an alert and its pending deliveries', answer: '{success: true}', activity: activity('alert.deleted', 'alert', 'deleted alert', 'param:id') }), alertId, async (c) => {
    await deleteAlert(rt, askerOfRequest(c), c.params.id);
    c.body = { success: true };
  });

  const tested = activity('alert.tested', 'alert', 'sent a test message of alert', 'param:id');
  router.post(
    '/admin/alerts/:id/test',
    auth.editor(),
    about({ summary: 'Send a test message to every channel of an alert (a few per person per window: RATE_LIMIT_ALERT_TESTS)', answer: 'One result per channel', status: 202, activity: tested }),
    alertId,
    async (c) => {
      c.status = 202;
      // Counted per person: a person's id, or the admin token's.
      c.body = await testAlert(rt, askerOfRequest(c), c.params.id, principalOf(c)?.user?.id ?? 'admin-token');
    },
  );

  router.get('/admin/alerts/:id/history', auth.editor(), about({ summary: 'An alert\'s state changes and deliveries (what receivers answered: admins only)', answer: 'AlertHistory' }), alertId, async (c) => {
    c.body = await alertHistory(rt, askerOfRequest(c), c.params.id);
  });

  // Whoever may open the dashboard's view may see its tiles' states (a draft: signed-in people who may use it).
  router.get('/dashboards/:id/alerts', auth.public(), about({ summary: 'The alert states of a dashboard\'s tiles, for whoever may open its view', answer: 'TileAlertState[]' }), dashboardId, async (c) => {
    const id = c.params.id;
    const published = await viewCacheOf(rt.app).view(id).then(() => true, () => false);
    if (!published) {
      // A draft: only for a signed-in person who may use it (asked only when a credential came along).
      const who = readSessionCookie(c.get('cookie')) || bearerToken(c) ? await resolvePrincipal(rt.app, c).catch(() => null) : null;
      const exists = who && mayUseDashboard(askerOf(who), id) ? await rt.app.models.Dashboard.exists({ _id: id }) : null;
      if (!exists) throw NotFoundError(`Dashboard ${id}`);
    }
    c.set('Cache-Control', 'no-store');
    c.body = await tileStates(rt, id);
  });

  router.get('/share/:token/alerts', auth.public(), about({ summary: 'The alert states of a shared dashboard\'s tiles', answer: 'TileAlertState[]' }), token, async (c) => {
    const link = await viewCacheOf(rt.app).links.get(c.params.token);
    if (!link || !isLive(link)) throw NotFoundError('Share link');
    c.set('Cache-Control', 'no-store');
    c.body = await tileStates(rt, link.dashboardId, link.filters);
  });

  return router;
}
