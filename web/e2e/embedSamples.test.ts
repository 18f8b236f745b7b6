import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, buildSource } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/harness';
import { embedSamples, type EmbedSamples } from '../src/admin/permissions/embedSamples';

/**
 * The Share dialog's signing samples are programs a host pastes as they are: each one, run here
 * with the secret and a customer id in its environment, signs a token the real server opens with
 * only that customer's rows. Python runs Debian's python3 with its PyJWT (python3-jwt), the shell
 * sample Debian's openssl.
 */
const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const dir = path.resolve('test-output/embed-samples');
let s: TestServer;
let samples: EmbedSamples;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  s = await startTestServer();
  const ds = await buildSource(s, { primaryKey: 'id', records: [{ id: 1, 'customer id': 'c-7' }, { id: 2, 'customer id': 'c-9' }, { id: 3, 'customer id': 'c-7' }] });
  const d = await buildDashboard(s, { source: ds, name: 'Orders "of" <customers>' });
  const secret = (await s.http('POST', `/api/admin/dashboards/${d.id}/embedding/secret`)).body.secret as string;
  // A field name with a space, as users name fields: each sample must carry it intact.
  samples = embedSamples({ baseUrl: `${s.url}/`, dashboardId: d.id, field: 'customer id', dashboardName: d.name });
  env = { ...process.env, LIVEDASH_EMBED_SECRET: secret, CUSTOMER_ID: 'c-7' };
  fs.mkdirSync(dir, { recursive: true });
});
afterAll(() => s?.close());

/** The token's view: the rows it opens. */
async function opened(url: string): Promise<number[]> {
  expect(url.trim()).toMatch(new RegExp(`^${s.url}/embed/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
  const token = url.trim().split('/embed/')[1];
  const res = await s.http('GET', `/api/embed/${token}`, { token: null });
  expect(res.status, res.text).toBe(200);
  return (res.body.records as { data: { id: number } }[]).map((r) => r.data.id).sort();
}

describe('the signing samples of the Share dialog', () => {
  it('Node (jose) signs a token that opens only the customer\'s rows', async () => {
    const file = path.join(dir, 'sign.mjs');
    fs.writeFileSync(file, `${samples.node}\nconsole.log(await embedUrl(process.env.CUSTOMER_ID));\n`);
    const { stdout } = await run(process.execPath, [file], { env });
    expect(await opened(stdout)).toEqual([1, 3]);
  });

  it('Python (PyJWT) signs a token that opens only the customer\'s rows', async () => {
    const file = path.join(dir, 'sign.py');
    fs.writeFileSync(file, `${samples.python}\nprint(embed_url(os.environ["CUSTOMER_ID"]))\n`);
    const { stdout } = await run(PYTHON, [file], { env });
    expect(await opened(stdout)).toEqual([1, 3]);
  });

  it('a shell with openssl signs a token that opens only the customer\'s rows', async () => {
    const { stdout } = await run('sh', ['-c', samples.shell], { env });
    expect(await opened(stdout)).toEqual([1, 3]);
  });

  it('gives an iframe tag for the embed page, the dashboard\'s name escaped', () => {
    expect(samples.iframe).toBe(`<iframe src="${s.url}/embed/<token signed on your server>" width="100%" height="600" style="border:0" title="Orders &#34;of&#34; &#60;customers&#62;"></iframe>`);
    for (const sample of [samples.node, samples.python, samples.shell]) expect(sample).not.toContain(env.LIVEDASH_EMBED_SECRET);
  });
});
