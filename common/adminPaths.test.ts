import { describe, expect, it } from 'vitest';
import { isAdminPath } from './adminPaths';

describe('isAdminPath', () => {
  it.each([
    ['/api/admin/dashboards', true],
    ['/api/integrations', true],
    ['/api/integrations/abc/sync-status?x=1', true],
    ['/api/data/sources', false],
    ['/api/dashboards/administrator', false],
    ['/api/data/raw?dataSourceId=admin', false],
  ])('%s → %s', (path, expected) => {
    expect(isAdminPath(path)).toBe(expected);
  });
});
