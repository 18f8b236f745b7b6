import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The docs' house rules: a README a newcomer can read in one sitting, a README in every server
 * folder that holds code, and no comment or doc sending the reader to a document the repository
 * does not hold (a product spec, an issue tracker, a decisions log) — a comment says its reason itself.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const README_MAX_BYTES = 16 * 1024;

/** Words that point outside the repository: a numbered section of a specification, a ticket number, the decisions log or another shared document by name. */
export const OUTSIDE_DOCUMENT = [
  /\bspec\s+(\d|section\b)/i,
  /\bthe spec\b/i,
  /\bspec's\b/i,
  /\(spec\b/i,
  /\bspecs?\s+\d/i,
  /\bissue[\s-]+\d/i,
  /\bissue\s+"/i,
  /\bthe issue\b/i,
  /\bissue's\b/i,
  /\(issue\b/i,
  /DECISIONS(\.md)?\b/,
  /product-spec/i,
  /\b(ARCHITECTURE|STYLE|TOOLCHAIN)\.md\b/,
];

const SKIP_DIRS = new Set(['node_modules', 'dist', 'test-output', '.git']);

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, keep));
    else if (keep(full)) out.push(full);
  }
  return out;
}

/** Every comment of a TypeScript / JavaScript file, with its line, read from the parsed tokens (strings and regexes are never mistaken for comments). */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map<number, { line: number; text: string }>();
  const collect = (pos: number) => {
    for (const range of [...(ts.getLeadingCommentRanges(text, pos) ?? []), ...(ts.getTrailingCommentRanges(text, pos) ?? [])]) {
      if (!seen.has(range.pos)) seen.set(range.pos, { line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) });
    }
  };
  // Every comment is leading or trailing trivia at the start or end of some node; a comment just
  // before a closing brace is leading trivia at the end of the node before it.
  const visit = (node: ts.Node) => {
    collect(node.getFullStart());
    collect(node.getEnd());
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...seen.entries()].sort(([a], [b]) => a - b).map(([, comment]) => comment);
}

/** Places in comments and docs that point at a document outside the repository, as "file:line: text". */
export function outsideReferences(dirs: string[]): string[] {
  const found: string[] = [];
  for (const dir of dirs) {
    for (const file of filesUnder(path.join(root, dir), (f) => /\.(ts|tsx|mjs|cjs|md)$/.test(f))) {
      const text = readFileSync(file, 'utf8');
      if (!OUTSIDE_DOCUMENT.some((re) => re.test(text))) continue; // parsing only the files that might hold one keeps this fast
      const pieces = file.endsWith('.md')
        ? text.split('\n').map((line, i) => ({ line: i + 1, text: line }))
        : commentsOf(file, text);
      for (const piece of pieces) {
        if (OUTSIDE_DOCUMENT.some((re) => re.test(piece.text))) found.push(`${path.relative(root, file)}:${piece.line}: ${piece.text.trim().slice(0, 160)}`);
      }
    }
  }
  return found;
}

describe('house rules of the docs', () => {
  it('keeps README.md at most 16 KB', () => {
    expect(statSync(path.join(root, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('gives every folder of server/ that holds .ts files a README.md (server/test aside)', () => {
    const folders = new Set(filesUnder(path.join(root, 'server'), (f) => f.endsWith('.ts')).map((f) => path.dirname(f)));
    const missing = [...folders]
      .filter((dir) => !path.relative(root, dir).startsWith(path.join('server', 'test')))
      .filter((dir) => !existsSync(path.join(dir, 'README.md')))
      .map((dir) => path.relative(root, dir));
    expect(missing).toEqual([]);
  });

  it('has no comment or doc pointing at a document outside the repository', () => {
    expect(outsideReferences(['server', 'web', 'common', 'scripts'])).toEqual([]);
  });

  it('reads comments from the parsed file, not from strings or regexes', () => {
    const text = "const re = /spec 2\\/ /; const s = 'issue 20'; // spec 9 here\n/** DECISIONS.md */ export const x = 1;";
    expect(commentsOf('x.ts', text).map((c) => c.text)).toEqual(['// spec 9 here', '/** DECISIONS.md */']);
  });
});

describe('house rules of the code', () => {
  it('keeps at most 15 source files directly in any folder of server/, common/, web/src and scripts/', () => {
    const counts = new Map<string, number>();
    for (const dir of ['server', 'common', 'web/src', 'scripts']) {
      for (const file of filesUnder(path.join(root, dir), (f) => /\.(ts|tsx|mjs|cjs)$/.test(f))) {
        const folder = path.relative(root, path.dirname(file));
        counts.set(folder, (counts.get(folder) ?? 0) + 1);
      }
    }
    expect([...counts].filter(([, n]) => n > 15).map(([folder, n]) => `${folder}: ${n} files`)).toEqual([]);
  });

  it('lets only the activity feature write the activity log: the others announce what happened on the event bus', () => {
    const direct = /activityHandle\.of\([^)]*\)\.(record|countPerMinute|signInFailed|identify)\b/;
    const offenders = filesUnder(path.join(root, 'server'), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => !path.relative(root, f).startsWith(path.join('server', 'activity') + path.sep))
      .filter((f) => direct.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f));
    expect(offenders).toEqual([]);
  });

  it('keeps the import rules: features meet at their doors, core and realtime know no feature, no import circle', () => {
    // dependency-cruiser's own report (scripts/dependencyRules.cjs); any violation is printed by name.
    const run = spawnSync(process.execPath, [path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'server', 'common', 'web/src', '--config', 'scripts/dependencyRules.cjs', '--output-type', 'err'], { cwd: root, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  }, 120_000);
});
