import type { Role } from '@common/schemas/auth';
import type { DataSourceDoc } from './models';

/**
 * Who calls: the shared vocabulary between the access feature (which resolves and decides) and the
 * features that only read it (activity names the actor, records name the source an ingest key opens).
 */
export interface Principal {
  via: 'session' | 'apiToken' | 'adminToken';
  role: Role;
  /** The person; null for the admin token. */
  user: { id: string; email: string; name: string; dashboardIds: string[] | null } | null;
  /** SHA-256 of the session id or the API token; null for the admin token. */
  credentialHash: string | null;
}

/**
 * Who may call a route: every route declares one next to its handler (the guards enforce it, the API
 * docs show it). `embed`: a signed embed token in the path is the credential (server/sharing).
 */
export type Audience = 'public' | 'ingest' | 'embed' | 'viewer' | 'editor' | 'admin';

/**
 * What an ingest call was let in with: the admin token or an admin's personal API token (`principal`:
 * who, so the access policy can hold a person limited to chosen dashboards to their sources; absent
 * for the server's own writes, an import the policy already allowed), or one data source's ingest key.
 */
export type IngestCredential = { admin: true; principal?: Principal } | { admin: false; source: DataSourceDoc };

/** What an ingest route knows about its caller once the guard let it through. */
export interface IngestState {
  ingestCredential: IngestCredential;
}

/** What a signed-in route knows about its caller once the guard let it through. */
export interface PrincipalState {
  principal: Principal;
}

/** Sessions or tokens ended: caches forget them and their sockets close (in every process, through the relay). */
export interface Revocation {
  userId?: string;
  credentialHashes?: string[];
  /** Only the cached copies go (dashboard limits changed); sessions and their sockets stay. */
  refreshOnly?: boolean;
  /** Set when the revocation came from another process through Redis (not published again). */
  relayed?: boolean;
}

/** The name of the session cookie (the API docs describe it; access sets and reads it). */
export const SESSION_COOKIE = 'livedash_session';
