import { describe, expect, it } from 'vitest';
import { fieldReader, fieldValue } from './cells';
import { formatPath, parsePath, pathProblem, pathReader, readPath, writePath } from './paths';

describe('field paths', () => {
  const record = { issue: { id: 7, tags: ['a', 'b'] }, 'a.b': 'dotted', a: { b: 'nested' }, values: [10, 20], 'x.y': { z: 1 }, n: null };

  it('reads nested objects and array items', () => {
    expect(readPath(record, 'issue.id')).toBe(7);
    expect(readPath(record, 'issue.tags.1')).toBe('b');
    expect(readPath(record, 'values.0')).toBe(10);
    expect(readPath(record, 'values.2')).toBeUndefined();
    expect(readPath(record, 'values.01')).toBeUndefined();
    expect(readPath(record, 'n.x')).toBeUndefined();
    expect(readPath(record, 'missing.x')).toBeUndefined();
  });

  it('lets a field named exactly as the path win, and escapes dots inside names', () => {
    expect(readPath(record, 'a.b')).toBe('dotted');
    expect(readPath({ a: { b: 'nested' } }, 'a.b')).toBe('nested');
    expect(readPath(record, 'x\\.y.z')).toBe(1);
    expect(parsePath('x\\.y.z')).toEqual(['x.y', 'z']);
    expect(parsePath('a\\\\b.c')).toEqual(['a\\b', 'c']);
    expect(formatPath(['x.y', 'z'])).toBe('x\\.y.z');
    expect(parsePath(formatPath(['a\\b.c', 'd']))).toEqual(['a\\b.c', 'd']);
  });

  it('never reads a prototype', () => {
    expect(readPath({}, 'toString')).toBeUndefined();
    expect(readPath({ a: {} }, 'a.constructor')).toBeUndefined();
    expect(readPath({ a: {} }, 'a.__proto__')).toBeUndefined();
    expect(pathReader('toString')({})).toBeUndefined();
    expect(pathReader('hasOwnProperty')({ hasOwnProperty: 3 })).toBe(3);
    expect(fieldReader('constructor')({})).toBeUndefined();
  });

  it('compiled readers agree with readPath', () => {
    for (const p of ['issue.id', 'a.b', 'x\\.y.z', 'values.1', 'n', 'missing']) expect(pathReader(p)(record)).toEqual(readPath(record, p));
  });

  it('column reads go through paths, custom fields still resolve', () => {
    const d = { ticket: { status: 'open' }, custom_fields: [{ id: 5, value: 'vip' }] };
    expect(fieldValue(d, 'ticket.status')).toBe('open');
    expect(fieldReader('ticket.status')(d)).toBe('open');
    expect(fieldValue(d, 'custom_5')).toBe('vip');
  });

  it('names the problem of a bad path', () => {
    expect(pathProblem('a..b')).toMatch(/empty name/);
    expect(pathProblem('')).toMatch(/empty/);
    expect(pathProblem('a.b')).toBeNull();
  });

  it('writes nested values without touching prototypes', () => {
    const d: Record<string, unknown> = {};
    expect(writePath(d, 'a.b', 1)).toBe(true);
    expect(d).toEqual({ a: { b: 1 } });
    expect(writePath(d, 'a.b.c', 1)).toBe(false);
    writePath(d, '__proto__.polluted', 1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
