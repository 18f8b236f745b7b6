import { describe, expect, it } from 'vitest';
import { RevisionGate } from '../src/public/viewer/revisionGate';

describe('viewer revision rules', () => {
  it('drops what the fetch already holds, applies the next revision part by part, drops duplicates', () => {
    const gate = new RevisionGate();
    gate.fetched();
    expect(gate.decide(5, 4, 0)).toBe('drop');
    expect(gate.decide(5, 5, 0)).toBe('drop');
    expect(gate.decide(5, 6, 0)).toBe('apply');
    expect(gate.decide(6, 6, 0)).toBe('drop');
    expect(gate.decide(6, 6, 1)).toBe('apply');
    expect(gate.decide(6, 6, 1)).toBe('drop');
    expect(gate.decide(6, 7, 0)).toBe('apply');
  });

  it('asks for a refetch when a revision was skipped', () => {
    const gate = new RevisionGate();
    gate.fetched();
    expect(gate.decide(3, 5, 0)).toBe('refetch');
    gate.fetched();
    expect(gate.decide(5, 5, 0)).toBe('drop');
  });
});
