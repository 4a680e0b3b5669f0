import { test } from 'vitest';
import { execFile } from '../../../src/starlark/index.ts';
function run(name: string, src: string, n: number) {
  const t0 = performance.now();
  execFile({ filename: 'b.star', source: src, dialect: { topLevelControl: true, globalReassign: true, while: true, recursion: true, set: true } });
  const ms = performance.now() - t0;
  console.log(`${name}: ${ms.toFixed(1)} ms, ${(ms * 1e6 / n).toFixed(0)} ns/op`);
}
test('bench', () => {
  for (let k = 0; k < 3; k++) {
  run('empty loop', `
def f():
  for i in range(1000000):
    pass
f()`, 1000000);
  run('pct format', `
def f():
  for i in range(300000):
    "k%d" % i
f()`, 300000);
  run('str concat key', `
def f():
  d = {}
  for i in range(300000):
    d["k" + str(i)] = i
f()`, 300000);
  run('str()', `
def f():
  for i in range(300000):
    str(i)
f()`, 300000);
  run('method call {}.get', `
def f():
  d = {}
  for i in range(1000000):
    d.get(None)
f()`, 1000000);
  }
});
