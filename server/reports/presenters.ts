import type { ChannelDto } from '@common/schemas/messaging/channel';
import type { ReportDeliveryDto, ReportDeliveryStatus, ReportDto, ReportFormat } from '@common/schemas/report';
import { scheduleText } from '@common/time/reportSchedule';
import { presentChannel } from '../core';
import type { ReportDeliveryDoc, ReportDoc, ReportRunDoc } from './models';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A delivery's state in the delivery log's words. */
export function deliveryStatus(d: Pick<ReportDeliveryDoc, 'status' | 'attempts'>): ReportDeliveryStatus {
  if (d.status === 'delivered') return 'sent';
  if (d.status === 'pending') return d.attempts?.length ? 'retrying' : 'sending';
  return 'failed';
}

/** Why a delivery is not sent (yet): its last attempt's answer. */
const deliveryError = (d: ReportDeliveryDoc): string | null => (d.status === 'delivered' ? null : (d.attempts?.[d.attempts.length - 1]?.message ?? null));

/** A report for editors and admins: channel addresses masked, no secret, no lease. */
export function presentReport(d: ReportDoc, dashboardName: string | null, last: ReportDeliveryDoc | null): ReportDto {
  return {
    id: String(d._id),
    name: d.name,
    dashboardId: d.dashboardId,
    dashboardName,
    tabId: d.tabId ?? null,
    schedule: d.schedule,
    scheduleText: scheduleText(d.schedule, d.timezone),
    formats: d.formats,
    width: d.width,
    theme: d.theme,
    paper: d.paper ?? 'A4',
    timezone: d.timezone,
    filters: d.filters ?? [],
    channels: (d.channels ?? []).map(presentChannel),
    paused: Boolean(d.paused),
    nextRunAt: iso(d.nextRunAt),
    drawRetryAt: iso(d.drawRetryAt),
    lastDelivery: last ? { at: iso(last.createdAt)!, channelType: last.channelType, status: deliveryStatus(last), error: deliveryError(last) } : null,
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
  };
}

/** One delivery of the log: when its run was drawn, to which channel (masked), how it stands, the files it carried. */
export function presentDelivery(d: ReportDeliveryDoc, run: ReportRunDoc | undefined, channel: ChannelDto | undefined): ReportDeliveryDto {
  return {
    id: String(d._id),
    runId: d.runId,
    at: iso(run?.at ?? d.createdAt)!,
    reason: run?.reason ?? 'schedule',
    channel: channel ?? { id: d.channelId, type: d.channelType, target: '(channel removed)' },
    status: deliveryStatus(d),
    error: deliveryError(d),
    attempts: d.attempts?.length ?? 0,
    nextAttemptAt: iso(d.nextAttemptAt),
    files: (run?.files ?? []).map((f) => ({ format: f.format as ReportFormat, bytes: f.bytes })),
  };
}
