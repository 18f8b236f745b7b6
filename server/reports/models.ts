import mongoose, { Schema, type Connection, type Model } from 'mongoose';
import type { ChannelType } from '@common/schemas/messaging/channel';
import type { ReportFormat, ReportPaper, ReportRunReason, ReportSchedule, ReportTheme } from '@common/schemas/report';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { OUTBOX_DUE_INDEX, outboxFields, type OutboxDoc, type StoredChannel } from '../core';

const options = { minimize: false, versionKey: false } as const;

/** A report: what is drawn, when, and where it goes; which process runs it now (the lease). */
export interface ReportDoc {
  _id: mongoose.Types.ObjectId;
  name: string;
  dashboardId: string;
  tabId: string | null;
  schedule: ReportSchedule;
  formats: ReportFormat[];
  width: number;
  theme: ReportTheme;
  paper: ReportPaper;
  timezone: string;
  filters: WidgetFilter[];
  channels: StoredChannel[];
  paused: boolean;
  /** When it goes next on its schedule (the core scheduler claims it); null while paused. */
  nextRunAt: Date | null;
  /** "Send now" asked and not yet taken by a process (the core scheduler claims it too). */
  sendRequestedAt: Date | null;
  /** Drawings that failed in a row (0 once one succeeds): how long the next retry waits. */
  drawFailures: number;
  /** When a drawing that failed is tried again (the core scheduler claims it); null: none pending. */
  drawRetryAt: Date | null;
  /** The process drawing it now, until when: one run of a report at a time, across processes. */
  lease: { owner: string | null; until: Date | null };
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const reportSchema = new Schema(
  {
    name: { type: String, required: true },
    dashboardId: { type: String, required: true },
    tabId: { type: String, default: null },
    schedule: { type: Schema.Types.Mixed, required: true },
    formats: { type: [String], default: [] },
    width: { type: Number, required: true },
    theme: { type: String, default: 'light' },
    paper: { type: String, default: 'A4' },
    timezone: { type: String, default: 'UTC' },
    filters: { type: [Schema.Types.Mixed], default: [] },
    channels: { type: [Schema.Types.Mixed], default: [] },
    paused: { type: Boolean, default: false },
    nextRunAt: { type: Date, default: null },
    sendRequestedAt: { type: Date, default: null },
    drawFailures: { type: Number, default: 0 },
    drawRetryAt: { type: Date, default: null },
    lease: { owner: { type: String, default: null }, until: { type: Date, default: null } },
    createdBy: { type: String, default: null },
  },
  { ...options, timestamps: true },
);
reportSchema.index({ nextRunAt: 1 });
reportSchema.index({ dashboardId: 1 });

/** A file of a run as its deliveries name it. */
export interface RunFile {
  fileId: string;
  format: ReportFormat;
  filename: string;
  contentType: string;
  bytes: number;
  sha256: string;
}

/** One drawing of a report, on its schedule or by "Send now": what its deliveries carry. */
export interface ReportRunDoc {
  _id: mongoose.Types.ObjectId;
  reportId: string;
  at: Date;
  reason: ReportRunReason;
  /** The process that drew it (its lease owner). */
  drawnBy: string;
  /** Drawn and handed to the channels, or not drawn (the error says why). */
  status: 'drawn' | 'failed';
  error: string | null;
  dashboardName: string;
  rangeText: string;
  kpis: { title: string; value: string }[];
  /** The chosen formats' files. */
  files: RunFile[];
  /** The picture shown in the messages (drawn even when PNG is not a chosen format), or null. */
  picture: RunFile | null;
  /** When its files (and so their links) go. */
  expiresAt: Date;
}

const runSchema = new Schema(
  {
    reportId: { type: String, required: true },
    at: { type: Date, required: true },
    reason: { type: String, required: true },
    drawnBy: { type: String, default: '' },
    status: { type: String, required: true },
    error: { type: String, default: null },
    dashboardName: { type: String, default: '' },
    rangeText: { type: String, default: '' },
    kpis: { type: [Schema.Types.Mixed], default: [] },
    files: { type: [Schema.Types.Mixed], default: [] },
    picture: { type: Schema.Types.Mixed, default: null },
    expiresAt: { type: Date, required: true },
  },
  options,
);
runSchema.index({ reportId: 1, at: -1 });
runSchema.index({ expiresAt: 1 });

/** One run's message to one channel: the core outbox sends it, retrying with backoff. */
export interface ReportDeliveryDoc extends OutboxDoc {
  _id: mongoose.Types.ObjectId;
  reportId: string;
  runId: string;
  channelId: string;
  channelType: ChannelType;
}

const deliverySchema = new Schema(
  {
    reportId: { type: String, required: true },
    runId: { type: String, required: true },
    channelId: { type: String, required: true },
    channelType: { type: String, required: true },
    ...outboxFields,
  },
  options,
);
deliverySchema.index(OUTBOX_DUE_INDEX);
deliverySchema.index({ reportId: 1, createdAt: -1 });

/** A kept file: its head (the bytes are in chunks, so any file fits in documents on any engine). */
export interface ReportFileDoc {
  _id: mongoose.Types.ObjectId;
  reportId: string;
  runId: string;
  format: ReportFormat;
  filename: string;
  contentType: string;
  bytes: number;
  sha256: string;
  chunks: number;
  expiresAt: Date;
}

const fileSchema = new Schema(
  {
    reportId: { type: String, required: true },
    runId: { type: String, required: true },
    format: { type: String, required: true },
    filename: { type: String, required: true },
    contentType: { type: String, required: true },
    bytes: { type: Number, required: true },
    sha256: { type: String, required: true },
    chunks: { type: Number, required: true },
    expiresAt: { type: Date, required: true },
  },
  options,
);
fileSchema.index({ expiresAt: 1 });
fileSchema.index({ reportId: 1 });

/** A piece of a kept file's bytes, in order `n`. */
export interface ReportFileChunkDoc {
  _id: mongoose.Types.ObjectId;
  fileId: string;
  n: number;
  data: Buffer;
}

const chunkSchema = new Schema({ fileId: { type: String, required: true }, n: { type: Number, required: true }, data: { type: Buffer, required: true } }, options);
chunkSchema.index({ fileId: 1, n: 1 });

export interface ReportModels {
  Report: Model<ReportDoc>;
  ReportRun: Model<ReportRunDoc>;
  ReportDelivery: Model<ReportDeliveryDoc>;
  ReportFile: Model<ReportFileDoc>;
  ReportFileChunk: Model<ReportFileChunkDoc>;
}

/** The reports' collections (indexes made here: the offline engine has no `create`). */
export async function createReportModels(conn: Connection): Promise<ReportModels> {
  const models: ReportModels = {
    Report: conn.model<ReportDoc>('Report', reportSchema as unknown as Schema<ReportDoc>),
    ReportRun: conn.model<ReportRunDoc>('ReportRun', runSchema as unknown as Schema<ReportRunDoc>),
    ReportDelivery: conn.model<ReportDeliveryDoc>('ReportDelivery', deliverySchema as unknown as Schema<ReportDeliveryDoc>),
    ReportFile: conn.model<ReportFileDoc>('ReportFile', fileSchema as unknown as Schema<ReportFileDoc>),
    ReportFileChunk: conn.model<ReportFileChunkDoc>('ReportFileChunk', chunkSchema as unknown as Schema<ReportFileChunkDoc>),
  };
  await Promise.all(Object.values(models).map((m: Model<unknown>) => m.createIndexes()));
  return models;
}
