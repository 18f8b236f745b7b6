import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC, configTable, withConfigTable } from './configTable';

describe('the configuration table of server/README.md', () => {
  it('matches server/core/config.ts (run `npm run docs:config` after changing a setting)', () => {
    const doc = readFileSync(CONFIG_DOC, 'utf8');
    expect(withConfigTable(doc)).toBe(doc);
  });

  it('lists a setting added to the schema, with its default and the comment above it', () => {
    const source = readFileSync(new URL('../server/core/config.ts', import.meta.url), 'utf8');
    const table = configTable(source);
    expect(table).toContain('| `PORT` | `5000` | Port the one process listens on');
    expect(table).toContain('| `MONGODB_URI` | — |');
    // A comment spread over several lines reads as one line.
    expect(table).toMatch(/\| `SOCKET_RECHECK_MS` \| `30000` \| How often each process checks its signed-in sockets .* lifetime\. \|/);
    expect(table.split('\n').length).toBeGreaterThan(40);
  });
});
