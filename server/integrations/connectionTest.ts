import type { TestConnectionDto } from '@common/schemas/integration';
import { ErrorCode } from '@common/schemas/errors';
import { ApiError } from '../core';
import { UpstreamProblem, type ProviderMemory, type PullConfigBase, type PullProvider } from './provider';
import { pullContext } from './pull';
import type { IntegrationsRuntime } from './runtime';
import { scrubSecrets } from './secrets';

const SAMPLE = 5;
const FIELDS_SHOWN = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Test connection: connects, reads the first page (batch) and stores nothing. Answers at most 5
 * records and the fields seen on the page, or a 422 saying what went wrong in words a person can
 * act on — with every secret of the config scrubbed.
 */
export async function readFirstPage(rt: IntegrationsRuntime, provider: PullProvider, config: PullConfigBase, memory: ProviderMemory): Promise<TestConnectionDto> {
  const abort = new AbortController();
  // A test is one page: twice one request's time at most (a 429's wait included), then it gives up.
  const timer = setTimeout(() => abort.abort(new UpstreamProblem(`no answer within ${Math.round((2 * rt.app.config.INTEGRATION_REQUEST_TIMEOUT_MS) / 1000)} s`)), 2 * rt.app.config.INTEGRATION_REQUEST_TIMEOUT_MS);
  const pages = provider.pages(config, null, pullContext(rt, memory, abort.signal, 'test', () => {}))[Symbol.asyncIterator]();
  const scrub = (text: string) => scrubSecrets(text, provider.secrets.values(config));
  try {
    const first = await pages.next();
    const records = first.done ? [] : first.value.records;
    const objects = records.filter(isObject);
    const fields: string[] = [];
    const seen = new Set<string>();
    for (const r of objects) {
      for (const k of Object.keys(r)) {
        if (seen.has(k) || fields.length >= FIELDS_SHOWN) continue;
        seen.add(k);
        fields.push(k);
      }
    }
    return { ok: true, fields, sample: objects.slice(0, SAMPLE), records: records.length };
  } catch (e) {
    const reason = abort.signal.aborted ? abort.signal.reason : e;
    const text = reason instanceof Error ? reason.message : String(reason);
    if (!(reason instanceof UpstreamProblem)) rt.app.log.warn(`integrations: test of a ${provider.type} integration failed: ${scrub(text)}`);
    throw new ApiError(422, ErrorCode.upstreamFailed, scrub(text));
  } finally {
    clearTimeout(timer);
    await pages.return?.(undefined).catch(() => {});
  }
}
