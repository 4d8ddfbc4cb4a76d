// How much of the JS reference's read time goes to building its strings, on
// the bench packets that carry strings:
//
//   node benches/js-string-share.js [RUNS] > target/js-string-share.jsonl
//
// For each packet of ../shared/bench/packets.jsonl with strings it times the
// reference's compiled reader as ../shared/bench/js/bench.js does (copy into
// the parser's buffer, then the reader; 2 s warm-up, median of RUNS runs of
// ~300 ms, the two taken in turns) twice: as compiled, and with each string's append statement
// (`name += String.fromCharCode(c)`) removed from the reader's source, so
// that the NUL is still searched for, unit by unit, but no string is built.
// The difference is what the JS engine spends building the strings (flat
// one-byte strings for this ASCII text, bump-allocated, freed by its young
// generation's collector). It prints one JSON line a packet: def, strings,
// read_ns, read_without_strings_ns, string_ns (per string).
//
// It runs the reference's own transpiler (run, not copied); the source is
// edited in memory only. TERA_BENCH_JS names the reference's folder
// (default ../shared/bench/js beside the project).
const fs = require('fs'), path = require('path');
const js = process.env.TERA_BENCH_JS || path.join(__dirname, '../../shared/bench/js');
const lib = path.join(js, 'node_modules/tera-data-parser/lib');
const parse = require(path.join(lib, 'parsers/def'));
const { transpile } = require(path.join(lib, 'protocol/compiler'));
const types = require(path.join(lib, 'protocol/types'));
const runs = +(process.argv[2] || 7);
const readBuf = Buffer.allocUnsafe(0x10000);
const APPEND = /^(\S+) \+= String\.fromCharCode\(\w+\);$/gm;

function timeIt(fn, ms) {
  let n = 0;
  const t0 = process.hrtime.bigint(), deadline = t0 + BigInt(ms * 1e6);
  let t;
  for (;;) {
    for (let i = 0; i < 64; i++) fn();
    n += 64;
    t = process.hrtime.bigint();
    if (t >= deadline) break;
  }
  return Number(t - t0) / n;
}
const median = a => [...a].sort((x, y) => x - y)[a.length >> 1];
// The reader as the reference's `compile` builds it, from `source`.
const reader = source =>
  Function('buffer', '"use strict";\n' + source).bind({ Vec3: types.Vec3, SkillID: types.SkillID, Customize: types.Customize });

for (const line of fs.readFileSync(path.join(js, '../packets.jsonl'), 'utf8').split('\n').filter(Boolean)) {
  const p = JSON.parse(line);
  const source = transpile(parse(path.join(js, '../../tera-data/definitions', p.def))).reader;
  const stripped = source.replace(APPEND, ';');
  if (stripped === source) continue;
  const bytes = Buffer.from(p.hex, 'hex');
  const view = new DataView(readBuf.buffer, readBuf.byteOffset, bytes.length);
  const timed = read => () => { bytes.copy(readBuf, 0, 0, bytes.length); return read(view); };
  const full = reader(source), bare = reader(stripped);
  bytes.copy(readBuf, 0, 0, bytes.length);
  let strings = 0;
  (function walk(v) {
    if (typeof v === 'string') strings++;
    else if (v && typeof v === 'object') for (const k in v) walk(v[k]);
  })(full(view));
  // Warmed up, then timed run by run in turns, so that both see the
  // machine in the same state.
  const fns = [timed(full), timed(bare)];
  for (const fn of fns) timeIt(fn, 2000);
  const r = [[], []];
  for (let i = 0; i < runs; i++) fns.forEach((fn, k) => r[k].push(timeIt(fn, 300)));
  const [withStrings, without] = r.map(median);
  console.log(JSON.stringify({
    def: p.def.replace(/\.def$/, ''), strings,
    read_ns: +withStrings.toFixed(1), read_without_strings_ns: +without.toFixed(1),
    string_ns: +((withStrings - without) / strings).toFixed(1),
  }));
}
