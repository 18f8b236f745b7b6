import { describe, expect, it } from 'vitest';
import { csvFile, examples, FORMATS, placeholderRecord, sampleBody, type SampleSource } from './samples';

const base: SampleSource = {
  origin: 'http://localhost:5000',
  sourceId: 'CSTM_NEW',
  primaryKey: null,
  appendOnly: false,
  record: placeholderRecord(new Date('2024-05-01T09:30:00.5Z')),
  isPlaceholder: true,
  credential: '<token>',
};

describe('API samples built from a source', () => {
  it('never name a primary key the source does not have, and carry only its own sourceId and fields', () => {
    for (const f of FORMATS) {
      const text = JSON.stringify(sampleBody(f.key, base));
      expect(text, f.key).not.toContain('primaryKey');
      expect(text, f.key).toContain('"sourceId":"CSTM_NEW"');
      expect(text, f.key).toContain('"name":"Example record"');
    }
    const keyed = { ...base, primaryKey: 'ticket_id', record: { ticket_id: 7, subject: 'Hi, "there"' }, isPlaceholder: false };
    expect(sampleBody('standard', keyed)).toEqual({ sourceId: 'CSTM_NEW', primaryKey: 'ticket_id', records: [{ ticket_id: 7, subject: 'Hi, "there"' }] });
    expect(csvFile(keyed)).toBe('ticket_id,subject\n7,"Hi, ""there"""\n');
  });

  it('address a record by its key for merge and delete, and explain what a source without a key cannot do', () => {
    const keyed = { ...base, primaryKey: 'ticket_id', record: { ticket_id: 7, subject: 'Hi' }, isPlaceholder: false };
    const byKey = Object.fromEntries(examples(keyed, '<ingest key>').map((e) => [e.key, e]));
    expect(byKey.merge.blocks[0].code).toContain(`'http://localhost:5000/api/data/sources/CSTM_NEW/records?mode=merge'`);
    expect(byKey.merge.blocks[0].code).toContain(`{"ticket_id":7,"subject":"updated"}`);
    expect(byKey.delete.blocks[0].code).toContain(`/records/7'`);
    expect(byKey.webhook.blocks[0].code).toBe('http://localhost:5000/api/data/sources/CSTM_NEW/records?key=<ingest key>');
    const none = Object.fromEntries(examples(base, '<ingest key>').map((e) => [e.key, e]));
    expect(none.merge.blocks).toEqual([]);
    expect(none.merge.note).toContain('no primary key');
    expect(none.delete.blocks[0].code).toContain('/records/<record id>');
  });
});
