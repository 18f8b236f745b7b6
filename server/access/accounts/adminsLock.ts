import crypto from 'node:crypto';
import { ConflictError } from '../../core';
import type { AppContext } from '../../core';
import { accountsHandle } from './accounts';

const LEASE_ID = 'team-admins';
/** A holder that died keeps the lease at most this long. */
const LEASE_MS = 10_000;
/** How long a change waits for the lease before answering 409. */
const WAIT_MS = 8_000;

const isDuplicateKey = (e: unknown) => (e as { code?: number })?.code === 11000;

/**
 * One change to who is an active admin at a time, in every process: the last-admin check and the
 * write run under a lease in the database, so two admins demoting or removing each other at the
 * same moment cannot both pass the check. Taking the lease is one conditional upsert (a held,
 * unexpired lease makes it a duplicate key), which real MongoDB and the offline engine both do.
 */
export async function withAdminsLock<T>(app: AppContext, fn: () => Promise<T>): Promise<T> {
  const { Lease } = accountsHandle.of(app).models;
  const holder = crypto.randomUUID();
  const deadline = Date.now() + WAIT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      const now = Date.now();
      await Lease.updateOne({ _id: LEASE_ID, until: { $lt: new Date(now) } }, { $set: { holder, until: new Date(now + LEASE_MS) } }, { upsert: true });
      break;
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      if (Date.now() > deadline) throw ConflictError('Another change to the team\'s admins is in progress: try again in a moment');
      await new Promise((r) => setTimeout(r, wait + Math.random() * wait));
    }
  }
  try {
    return await fn();
  } finally {
    await Lease.deleteOne({ _id: LEASE_ID, holder }).catch((e) => app.log.error('accounts: could not release the admins lease', e));
  }
}
