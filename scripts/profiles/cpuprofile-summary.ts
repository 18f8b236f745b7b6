/**
 * Summarises a `node --cpu-prof` profile: self time per function (with its file), self time per
 * package or source folder, and the heaviest stacks (the innermost frames of our own code or a
 * package). `--from=<s>` / `--to=<s>` keep only the samples of that window (seconds from the
 * profile's start), e.g. to leave a process's start-up out.
 *   npx tsx scripts/profiles/cpuprofile-summary.ts <file.cpuprofile> [--top=30] [--from=5]
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) throw new Error('usage: cpuprofile-summary <file.cpuprofile> [--top=30] [--from=s] [--to=s]');
const opt = (name: string, dflt: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const top = opt('top', 30);
const from = opt('from', 0) * 1e6;
const to = opt('to', Infinity) * 1e6;

const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node, from the samples inside the window (each sample weighs the delta that follows it).
const self = new Map<number, number>();
let t = 0;
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i];
  const w = p.timeDeltas[i + 1] ?? 0;
  if (t < from || t > to) continue;
  self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + w);
  total += w;
}

const shortUrl = (url: string) => url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'npm:').replace(/^.*\/(server|common|web|scripts)\//, '$1/');
const label = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
/** The package (npm:name) or our folder a frame belongs to; node's own and V8's as they are. */
const area = (n: Node) => {
  const u = shortUrl(n.callFrame.url);
  if (!u) return n.callFrame.functionName;
  if (u.startsWith('npm:')) return u.split('/').slice(0, u.startsWith('npm:@') ? 2 : 1).join('/');
  if (u.startsWith('node:')) return u;
  return u.split('/').slice(0, 2).join('/');
};

const sum = (key: (n: Node) => string) => {
  const m = new Map<string, number>();
  for (const [id, us] of self) m.set(key(byId.get(id)!), (m.get(key(byId.get(id)!)) ?? 0) + us);
  return [...m].sort((a, b) => b[1] - a[1]);
};
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%`;

console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled in the window`);
console.log('\nself time by function');
for (const [k, us] of sum(label).slice(0, top)) console.log(`${ms(us)}  ${k}`);
console.log('\nself time by package / folder');
for (const [k, us] of sum(area).slice(0, top)) console.log(`${ms(us)}  ${k}`);

// Total (inclusive) time per function of ours or of a package, to see what a whole path costs.
const inclusive = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const node = byId.get(n)!;
    if (!node.callFrame.url) continue;
    const k = label(node);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
}
console.log('\ntotal (inclusive) time by function');
for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${k}`);

// Busy time per second of the profile (to find start-up, the work itself and the idle tail).
if (args.includes('--timeline')) {
  const busy: number[] = [];
  let at = 0;
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i];
    const s = Math.floor(at / 1e6);
    busy[s] = (busy[s] ?? 0) + (idle.has(p.samples[i]) ? 0 : (p.timeDeltas[i + 1] ?? 0));
  }
  console.log('\nbusy ms per second of the profile');
  console.log(Array.from(busy, (us, s) => `${s}s:${((us ?? 0) / 1000).toFixed(0)}`).join(' '));
}

// `--focus=<text>`: for the frames whose label contains it, the callers that lead to them and what they spend their time in.
const focus = args.find((a) => a.startsWith('--focus='))?.slice('--focus='.length);
if (focus) {
  const callers = new Map<string, number>();
  const callees = new Map<string, number>();
  for (const [id, us] of self) {
    const chain: Node[] = [];
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) chain.push(byId.get(n)!);
    const at = chain.findIndex((n) => label(n).includes(focus));
    if (at < 0) continue;
    const up = chain.slice(at + 1, at + 5).map(label).join(' < ');
    callers.set(up, (callers.get(up) ?? 0) + us);
    const down = at === 0 ? '(self)' : label(chain[at - 1]);
    callees.set(down, (callees.get(down) ?? 0) + us);
  }
  console.log(`\ncallers of "${focus}"`);
  for (const [k, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${ms(us)}  ${k}`);
  console.log(`\nwhat "${focus}" calls`);
  for (const [k, us] of [...callees].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${k}`);
}
