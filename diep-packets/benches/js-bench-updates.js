// Prints the Update messages that ../../../shared/diep/js/bench.js writes, one
// JSON line each ({"side","name","value","hex"}), so that the Rust bench
// writes the same messages:
//
//   node diep-packets/benches/js-bench-updates.js > target/diep-bench-updates.jsonl
//   DIEP_BENCH_UPDATES=$PWD/target/diep-bench-updates.jsonl cargo bench -p diep-packets
//
// It calls the JS reference's generator (run, not copied) with bench.js's
// parameters: seed 12, 150 messages, message i with tick i * 7, one deletion
// {hash: 1 + i % 50, id: i} and 1 + i % 4 entities.
const path = require('path');
const js = process.env.DIEP_JS || path.join(__dirname, '../../../shared/diep/js');
const { generate } = require(path.join(js, 'gen'));
const g = generate(12, 150);
for (let i = 0; i < 150; i++) {
  const dels = [{ hash: 1 + i % 50, id: i }];
  const ups = Array.from({ length: 1 + i % 4 }, g.entityMsg);
  const w = new g.Writer();
  w.u8(0).vu(i * 7).vu(dels.length); for (const d of dels) w.entid(d);
  w.vu(ups.length); for (const e of ups) (e.json.kind === 'creation' ? g.compileCreation : g.compileUpdate)(g.camera, w, e.obj);
  const hex = Buffer.from(w.write(true)).toString('hex');
  console.log(JSON.stringify({ side: 'clientbound', name: 'Update', value: { tick: i * 7, deletes: dels, upcreates: ups.map(u => u.json) }, hex }));
}
