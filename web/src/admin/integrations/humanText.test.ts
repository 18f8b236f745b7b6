import { describe, expect, it } from 'vitest';
import { everyText, plural, summarizeSyncError } from './humanText';

describe('integration texts', () => {
  it('says schedules in their unit and plurals right', () => {
    expect(everyText(1800)).toBe('every 30 minutes');
    expect(everyText(3600)).toBe('every hour');
    expect(everyText(86_400)).toBe('every day');
    expect(everyText(300)).toBe('every 5 minutes');
    expect(everyText(45)).toBe('every 45 seconds');
    expect(everyText(90)).toBe('every 90 seconds');
    expect(plural(1, 'item')).toBe('1 item');
    expect(plural(2, 'item')).toBe('2 items');
    expect(plural(0, 'custom status', 'custom statuses')).toBe('0 custom statuses');
  });

  it('summarises sync errors in a sentence', () => {
    expect(summarizeSyncError('tickets: Zendesk request failed: HTTP 401 Unauthorized {"error":"invalid_token"} at GET /api/v2/incremental/tickets/cursor.json'))
      .toBe('Zendesk answered 401: the authorization expired — reconnect.');
    expect(summarizeSyncError('tickets: GET /api/v2/tickets/123.json answered 401 (Couldn\'t authenticate you)'))
      .toBe('Zendesk answered 401: the authorization expired — reconnect.');
    expect(summarizeSyncError('users: HTTP 503 Service Unavailable')).toBe('Zendesk answered 503: Zendesk had a problem on its side — try again later.');
    expect(summarizeSyncError('fetch failed: getaddrinfo ENOTFOUND acme.zendesk.com')).toBe('Zendesk could not be reached — check the Host URL and the network.');
    expect(summarizeSyncError('something odd')).toBe('The last sync failed.');
  });
});
