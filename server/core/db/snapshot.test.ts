import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJongodb, type JongodbHandle } from './jongodb';
import { EXACT_TYPES, readSnapshot, SnapshotUnreadable, writeSnapshot } from './snapshot';
import { restore } from './dataKeeper';

const { Binary, Decimal128, Double, Int32, Long, ObjectId } = mongoose.mongo;

/** The snapshot file against the offline engine itself: what goes in comes back, typed as it was; a damaged file never loads. */
describe('the offline engine snapshot', () => {
  let engine: JongodbHandle;
  let conn: mongoose.Connection;
  let dir: string;
  beforeAll(async () => {
    engine = await startJongodb('livedash');
    conn = await mongoose.createConnection(engine.uri, { autoCreate: false, autoIndex: false, monitorCommands: true }).asPromise();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-snapshot-'));
  });
  afterAll(async () => {
    await conn?.close();
    await engine?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const id = new ObjectId();
  const odd = {
    _id: id,
    when: new Date('2015-11-30T23:59:59.999Z'),
    int: new Int32(7),
    double: new Double(7),
    long: Long.fromString('9007199254740993'),
    decimal: Decimal128.fromString('0.1'),
    bytes: new Binary(Buffer.from([0, 1, 2, 255])),
    ref: new ObjectId(),
    nested: { 'a.b': new Int32(1), $c: [new Date(0), null, 'x\ny'], emptyObject: {}, emptyList: [] },
    text: 'naïve – 東京 \u2028',
  };
  const read = (name: string) => conn.db!.collection(name).find({}, EXACT_TYPES);
  const save = (file: string, names: string[]) => writeSnapshot(file, names, read);

  it('gives back every document with its types, through one insert per collection', async () => {
    await conn.db!.collection('odd').insertOne(odd);
    await conn.db!.collection<{ _id: string; i: number }>('many').insertMany(Array.from({ length: 2_500 }, (_, i) => ({ _id: `r${i}`, i })));
    const file = path.join(dir, 'a.ejson');
    const summary = await save(file, ['empty', 'many', 'odd']);
    expect(summary).toMatchObject({ collections: 3, documents: 2_501 });
    expect(fs.existsSync(`${file}.tmp`)).toBe(false);

    const snapshot = (await readSnapshot(file))!;
    expect([...snapshot.collections.keys()]).toEqual(['empty', 'many', 'odd']);
    await Promise.all(['odd', 'many'].map((c) => conn.db!.collection(c).deleteMany({})));
    const inserts: string[] = [];
    const count = (ev: mongoose.mongo.CommandStartedEvent) => void (ev.commandName === 'insert' && inserts.push(String(ev.command.insert)));
    conn.getClient().on('commandStarted', count);
    try {
      expect(await restore(conn, snapshot)).toBe(2_501);
    } finally {
      conn.getClient().off('commandStarted', count);
    }
    // The engine checks unique indexes against the whole collection on every write command: one per collection.
    expect(inserts).toEqual(['many', 'odd']);

    const back = await conn.db!.collection('odd').findOne({ _id: id }, EXACT_TYPES);
    expect(back).toEqual(odd);
    expect(back!.int).toBeInstanceOf(Int32);
    expect(back!.double).toBeInstanceOf(Double);
    expect(back!.long).toBeInstanceOf(Long);
    expect(back!.bytes).toBeInstanceOf(Binary);
    expect(back!.ref).toBeInstanceOf(ObjectId);
    expect(back!.when).toEqual(odd.when);
    expect(await conn.db!.collection('many').countDocuments()).toBe(2_500);
  });

  it('never loads a file cut short, changed or foreign, and says which and why', async () => {
    const file = path.join(dir, 'b.ejson');
    await save(file, ['many', 'odd']);
    const whole = fs.readFileSync(file);
    const refused = async (bytes: Buffer | string) => {
      fs.writeFileSync(file, bytes);
      const e = await readSnapshot(file).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(SnapshotUnreadable);
      expect((e as Error).message).toContain(file);
      return (e as Error).message;
    };
    expect(await refused(whole.subarray(0, Math.floor(whole.length / 2)))).toMatch(/cut short/);
    // Cut at a line's end: every line whole, the end line missing.
    const lastLine = whole.lastIndexOf(0x0a, whole.length - 2) + 1;
    expect(await refused(whole.subarray(0, lastLine))).toMatch(/cut short/);
    expect(await refused(whole.subarray(0, whole.lastIndexOf(0x0a, lastLine - 2) + 1))).toMatch(/cut short/);
    // One byte changed inside a document.
    const changed = Buffer.from(whole);
    changed[whole.indexOf('"r1"') + 2] = '7'.charCodeAt(0);
    expect(await refused(changed)).toMatch(/checksum/);
    expect(await refused('')).toMatch(/cut short/);
    expect(await refused('{"not":"a snapshot"}\n')).toMatch(/cut short/);
    expect(await readSnapshot(path.join(dir, 'none.ejson'))).toBeNull();
  });

  it('leaves the last good snapshot in place when a write fails halfway', async () => {
    const file = path.join(dir, 'c.ejson');
    await save(file, ['odd']);
    const good = fs.readFileSync(file);
    async function* failing() {
      yield { _id: 1 };
      throw new Error('the engine went away');
    }
    await expect(writeSnapshot(file, ['odd'], () => failing())).rejects.toThrow('the engine went away');
    expect(fs.readFileSync(file)).toEqual(good);
    expect(fs.existsSync(`${file}.tmp`)).toBe(false);
  });
});
