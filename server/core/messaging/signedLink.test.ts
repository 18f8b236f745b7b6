import { describe, expect, it } from 'vitest';
import { outlivingDatabase } from '../../test/database';
import { loadConfig } from '../config';
import type { AppContext } from '../context';
import { signedLinksOf } from './signedLink';

/**
 * Signed links on the real offline engine: two processes of one deployment (here two app contexts
 * on one database) agree on the key without SERVER_SECRET; any changed character, another purpose
 * or extension, or the expiry makes a token name nothing.
 */
const db = outlivingDatabase();
const appOn = (env: Record<string, string> = {}) => ({ config: loadConfig({ ADMIN_TOKEN: `random-per-run-${Math.random()}`, ...env }), conn: db.conn, handles: new Map() }) as unknown as AppContext;
const ID = '0123456789abcdef01234567';

describe('signed links', () => {
  it('are verified by every process of the deployment, also without SERVER_SECRET, until they expire', async () => {
    const [a, b] = await Promise.all([signedLinksOf(appOn()), signedLinksOf(appOn())]);
    const until = new Date(Date.now() + 60_000);
    const token = a.sign('report-file', ID, until, 'png');
    expect(token).toMatch(/^[0-9a-z-]+$/);
    expect(b.verify('report-file', token, 'png')).toEqual({ id: ID, expiresAt: new Date(Math.ceil(until.getTime() / 1000) * 1000) });
    expect(b.verify('report-file', token, 'png', until.getTime() + 1_000)).toBeNull();
    // A process started later reads the same key.
    expect((await signedLinksOf(appOn())).verify('report-file', token, 'png')).not.toBeNull();
  });

  it('refuse a token with any character changed, or used for another purpose or extension', async () => {
    const links = await signedLinksOf(appOn());
    const token = links.sign('report-file', ID, new Date(Date.now() + 60_000), 'pdf');
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '-') continue;
      const changed = token.slice(0, i) + (token[i] === '0' ? '1' : '0') + token.slice(i + 1);
      expect(links.verify('report-file', changed, 'pdf'), `character ${i} changed`).toBeNull();
    }
    expect(links.verify('report-file', `${token}0`, 'pdf')).toBeNull();
    expect(links.verify('report-file', token, 'png')).toBeNull();
    expect(links.verify('something-else', token, 'pdf')).toBeNull();
    expect(links.verify('report-file', '', 'pdf')).toBeNull();
  });

  it('with SERVER_SECRET take their key from it: another secret verifies nothing', async () => {
    const until = new Date(Date.now() + 60_000);
    const one = await signedLinksOf(appOn({ SERVER_SECRET: 'a'.repeat(40) }));
    const same = await signedLinksOf(appOn({ SERVER_SECRET: 'a'.repeat(40) }));
    const other = await signedLinksOf(appOn({ SERVER_SECRET: 'b'.repeat(40) }));
    const token = one.sign('report-file', ID, until, 'csv');
    expect(same.verify('report-file', token, 'csv')?.id).toBe(ID);
    expect(other.verify('report-file', token, 'csv')).toBeNull();
  });
});
