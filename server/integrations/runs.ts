import mongoose from 'mongoose';
import type { IntegrationRunDto } from '@common/schemas/integration';
import { RUN_REJECTIONS_KEPT, RUNS_KEPT, type RunDoc, type RunRejection } from './models';
import { presentRun } from './presenters';
import type { IntegrationsRuntime } from './runtime';

/** The history of sync runs: one document per run, the last RUNS_KEPT per integration. */

/** A new run document, not yet written (its id is known before the lease is taken). */
export function newRun(integrationId: string, mode: RunDoc['mode'], trigger: RunDoc['trigger']): RunDoc {
  return {
    _id: new mongoose.Types.ObjectId(),
    integrationId,
    startedAt: new Date(),
    finishedAt: null,
    status: 'running',
    mode,
    trigger,
    records: 0,
    pages: 0,
    rejected: 0,
    rejections: [],
    error: null,
    notes: [],
  };
}

export async function openRun(rt: IntegrationsRuntime, run: RunDoc): Promise<void> {
  await rt.models.Run.insertMany([run]);
}

/** Writes a run's outcome and forgets the runs past the last RUNS_KEPT of its integration. */
export async function closeRun(rt: IntegrationsRuntime, run: RunDoc): Promise<void> {
  const { _id, ...fields } = run;
  await rt.models.Run.updateOne({ _id }, { $set: { ...fields, rejections: run.rejections.slice(0, RUN_REJECTIONS_KEPT) } });
  const old = await rt.models.Run.find({ integrationId: run.integrationId }).sort({ startedAt: -1 }).skip(RUNS_KEPT).limit(1000).lean<RunDoc[]>();
  if (old.length) await rt.models.Run.deleteMany({ _id: { $in: old.map((r) => r._id) } });
}

/** Adds rejections to a run, keeping the first few with their reasons (the count keeps all). */
export function addRejections(run: RunDoc, rejections: RunRejection[]): void {
  run.rejected += rejections.length;
  for (const r of rejections) {
    if (run.rejections.length >= RUN_REJECTIONS_KEPT) break;
    run.rejections.push(r);
  }
}

/** The last runs of an integration, newest first. */
export async function listRuns(rt: IntegrationsRuntime, integrationId: string): Promise<IntegrationRunDto[]> {
  const runs = await rt.models.Run.find({ integrationId }).sort({ startedAt: -1 }).limit(RUNS_KEPT).lean<RunDoc[]>();
  return runs.map(presentRun);
}
