import { z } from 'zod';
import { ChannelInput, KeptChannel, MAX_CHANNELS, type ChannelDto, type ChannelType } from './messaging/channel';
import { LockedFilters } from './widgets/dashboardFilter';
import type { WidgetFilter } from './widgets/widget';

/** Reports go at most this often, whatever their schedule says. */
export const REPORT_MIN_MINUTES = 5;
/** The longest `everyMinutes` (four weeks). */
export const REPORT_MAX_MINUTES = 40_320;
export const REPORT_FORMATS = ['png', 'pdf', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_THEMES = ['light', 'dark'] as const;
export type ReportTheme = (typeof REPORT_THEMES)[number];
/** The PDF's paper, landscape. */
export const REPORT_PAPERS = ['A4', 'Letter'] as const;
export type ReportPaper = (typeof REPORT_PAPERS)[number];
export const REPORT_DEFAULT_WIDTH = 1440;
export const REPORT_MIN_WIDTH = 480;
export const REPORT_MAX_WIDTH = 3840;
/** Deliveries `GET /api/admin/reports/:id/deliveries` answers. */
export const REPORT_DELIVERIES_SHOWN = 100;

/** Whether the runtime knows an IANA time zone ("Europe/Berlin", "UTC"). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const TimeZone = (what: string) =>
  z
    .string({ error: `${what} must be an IANA time zone such as "Europe/Berlin"` })
    .trim()
    .min(1, `${what} must be an IANA time zone such as "Europe/Berlin"`)
    .max(64)
    .refine(isTimeZone, { message: `${what} is not a time zone this server knows: use an IANA name such as "Europe/Berlin" or "UTC"` });

/**
 * When a report goes: `{everyMinutes: n}` (n ≥ 5), or a five-field cron expression
 * (`{cron: "0 8 * * 1-5", timezone?: "Europe/Berlin"}`; without a timezone, the report's). A cron
 * expression whose runs come closer than 5 minutes apart is refused by the server (it reads the
 * expression with its cron library).
 */
export const ReportSchedule = z.union(
  [
    z
      .object({
        everyMinutes: z
          .number({ error: 'schedule.everyMinutes must be a number of minutes' })
          .int('schedule.everyMinutes must be a whole number of minutes')
          .min(REPORT_MIN_MINUTES, `schedule.everyMinutes must be at least ${REPORT_MIN_MINUTES}: reports go at most every ${REPORT_MIN_MINUTES} minutes`)
          .max(REPORT_MAX_MINUTES, `schedule.everyMinutes must be at most ${REPORT_MAX_MINUTES} (four weeks); use a cron expression for rarer reports`),
      })
      .strict(),
    z
      .object({
        cron: z.string({ error: 'schedule.cron must be a cron expression such as "0 8 * * 1-5"' }).trim().min(9, 'schedule.cron must be a five-field cron expression such as "0 8 * * 1-5"').max(200),
        timezone: TimeZone('schedule.timezone').optional(),
      })
      .strict(),
  ],
  { error: 'schedule is {everyMinutes: n} (n ≥ 5) or {cron: "0 8 * * 1-5", timezone?: "Europe/Berlin"}' },
);
export type ReportSchedule = z.infer<typeof ReportSchedule>;

const Formats = z
  .array(z.enum(REPORT_FORMATS, { error: `formats: each is one of ${REPORT_FORMATS.join(', ')}` }))
  .min(1, 'formats: choose at least one of png, pdf, csv')
  .max(REPORT_FORMATS.length)
  .refine((f) => new Set(f).size === f.length, { message: 'formats: each format once' });

const reportShape = {
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  dashboardId: z.string({ error: 'dashboardId is required' }).trim().min(1, 'dashboardId is required').max(100),
  /** The tab drawn (default: the first). */
  tabId: z.string().trim().min(1).max(100).nullable(),
  schedule: ReportSchedule,
  formats: Formats,
  channels: z.array(ChannelInput).min(1, 'channels: give at least one channel to send the report to').max(MAX_CHANNELS, `At most ${MAX_CHANNELS} channels`),
  /** Locked filters, as on share links: every file holds only the records matching all of them. */
  filters: LockedFilters,
  /** Width of the picture in pixels. */
  width: z
    .number({ error: 'width must be a number of pixels' })
    .int('width must be a whole number of pixels')
    .min(REPORT_MIN_WIDTH, `width must be at least ${REPORT_MIN_WIDTH} px`)
    .max(REPORT_MAX_WIDTH, `width must be at most ${REPORT_MAX_WIDTH} px`),
  theme: z.enum(REPORT_THEMES, { error: 'theme is light or dark' }),
  /** The PDF's paper (landscape). */
  paper: z.enum(REPORT_PAPERS, { error: 'paper is A4 or Letter' }),
  /** Dates in the files and the default of a cron schedule's timezone. */
  timezone: TimeZone('timezone'),
  /** A paused report keeps its settings and sends nothing on its schedule ("Send now" still sends). */
  paused: z.boolean({ error: 'paused is true or false' }),
};

/** POST /api/admin/reports */
export const CreateReport = z
  .object({
    ...reportShape,
    tabId: reportShape.tabId.default(null),
    filters: reportShape.filters.default([]),
    width: reportShape.width.default(REPORT_DEFAULT_WIDTH),
    theme: reportShape.theme.default('light'),
    paper: reportShape.paper.default('A4'),
    timezone: reportShape.timezone.default('UTC'),
    paused: reportShape.paused.default(false),
  })
  .strict();
export type CreateReport = z.infer<typeof CreateReport>;

/** PATCH /api/admin/reports/:id: any field; `channels` replaces the list (a saved one kept as {id, keep: true}). */
export const UpdateReport = z
  .object({
    ...(Object.fromEntries(Object.entries(reportShape).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof reportShape]: z.ZodOptional<(typeof reportShape)[K]> }),
    channels: z
      .array(z.union([KeptChannel, ChannelInput], { error: 'A channel is a new one {type, url | to} or a saved one {id, keep: true}' }))
      .min(1, 'channels: give at least one channel to send the report to')
      .max(MAX_CHANNELS, `At most ${MAX_CHANNELS} channels`)
      .optional(),
  })
  .strict();
export type UpdateReport = z.infer<typeof UpdateReport>;

/** POST /api/admin/reports/preview: the picture a report of these settings would send now. */
export const PreviewReport = z
  .object({
    dashboardId: reportShape.dashboardId,
    tabId: reportShape.tabId.default(null),
    filters: reportShape.filters.default([]),
    width: reportShape.width.default(REPORT_DEFAULT_WIDTH),
    theme: reportShape.theme.default('light'),
    timezone: reportShape.timezone.default('UTC'),
  })
  .strict();
export type PreviewReport = z.infer<typeof PreviewReport>;

/** Why a report ran: its schedule, "Send now", or a drawing that failed tried again. */
export type ReportRunReason = 'schedule' | 'send' | 'retry';

/** How a delivery stands: sent, given up on, waiting to be tried again, or its first attempt under way. */
export type ReportDeliveryStatus = 'sent' | 'failed' | 'retrying' | 'sending';

/** A report as editors and admins see it (never a channel's URL, address or secret). */
export interface ReportDto {
  id: string;
  name: string;
  dashboardId: string;
  dashboardName: string | null;
  tabId: string | null;
  schedule: ReportSchedule;
  /** The schedule in words: "every weekday at 08:00 Berlin". */
  scheduleText: string;
  formats: ReportFormat[];
  width: number;
  theme: ReportTheme;
  paper: ReportPaper;
  timezone: string;
  filters: WidgetFilter[];
  channels: ChannelDto[];
  paused: boolean;
  /** When it goes next on its schedule (null: paused). */
  nextRunAt: string | null;
  /** Its last drawing failed: when it is tried again (null: none pending). */
  drawRetryAt: string | null;
  /** Its latest delivery (any channel), or null before the first. */
  lastDelivery: { at: string; channelType: ChannelType; status: ReportDeliveryStatus; error: string | null } | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer of a creation: each webhook channel's signing secret, this once. */
export interface CreatedReportDto extends ReportDto {
  secrets: { channelId: string; secret: string }[];
}

/** One run's delivery to one channel: `GET /api/admin/reports/:id/deliveries`, newest first. */
export interface ReportDeliveryDto {
  id: string;
  runId: string;
  /** When the run was drawn. */
  at: string;
  /** Why it ran: its schedule, "Send now", or a failed drawing tried again. */
  reason: ReportRunReason;
  channel: ChannelDto;
  status: ReportDeliveryStatus;
  /** Why the last attempt failed (the receiver's answer or the network error), or null. */
  error: string | null;
  attempts: number;
  nextAttemptAt: string | null;
  files: { format: ReportFormat; bytes: number }[];
}

/** The webhook body of a report (Slack and Teams get it as Block Kit and an Adaptive Card). */
export interface ReportWebhookBody {
  report: { id: string; name: string };
  dashboard: { id: string; name: string; url: string };
  kpis: { title: string; value: string }[];
  files: { format: ReportFormat; url: string; bytes: number; sha256: string }[];
  at: string;
}
