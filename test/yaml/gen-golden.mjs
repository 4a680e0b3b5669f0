// Regenerates the golden outputs of test/yaml/cases from the real kpt (v1.0.0-beta.56):
//   <name>.out.yaml  what `kpt fn render` writes when no function receives the file (pure writer)
//   <name>.fn.yaml   what it writes after one identity exec function (/bin/cat) received it (§7)
// Usage: node test/yaml/gen-golden.mjs [name-filter]. Needs `kpt` on PATH; tests never run it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, copyFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = new URL('./cases/', import.meta.url).pathname;
const filter = process.argv[2] ?? '';
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.in.yaml') && f.includes(filter))
  .map((f) => f.slice(0, -'.in.yaml'.length));

const kptfile = (selectors) => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: golden
pipeline:
  mutators:
  - exec: /bin/cat
${selectors ? '    selectors:\n    - kind: NoSuchKind\n' : ''}`;

function render(pure, files) {
  const pkg = mkdtempSync(join(tmpdir(), 'krmfn-golden-'));
  try {
    writeFileSync(join(pkg, 'Kptfile'), kptfile(pure));
    for (const n of files) copyFileSync(join(dir, `${n}.in.yaml`), join(pkg, `${n}.yaml`));
    execFileSync('kpt', ['fn', 'render', '--allow-exec', pkg], { stdio: 'pipe' });
    const out = {};
    for (const n of files)
      out[n] = existsSync(join(pkg, `${n}.yaml`)) ? readFileSync(join(pkg, `${n}.yaml`), 'utf8') : '';
    return out;
  } finally {
    rmSync(pkg, { recursive: true, force: true });
  }
}

function renderEach(pure, files) {
  try {
    return render(pure, files);
  } catch {
    const out = {};
    for (const n of files) {
      try {
        Object.assign(out, render(pure, [n]));
      } catch (e) {
        out[n] = { error: String(e.stderr ?? e).trim() };
      }
    }
    return out;
  }
}

/** The message of kpt's error line, without the temporary path: `yaml: line 5: ...`. */
function errorMessage(stderr) {
  const line = stderr.split('\n').find((l) => /^Error: /.test(l)) ?? stderr;
  return line.replace(/^Error: [^:]*: (MalformedYAMLError: )?/, '');
}

const pure = renderEach(true, names);
// One package per case: inside one ResourceList, comments of neighbouring items would interact.
const fn = {};
for (const n of names.filter((n) => !/^err-/.test(n))) Object.assign(fn, renderEach(false, [n]));
for (const n of names) {
  const p = pure[n];
  if (typeof p === 'string') writeFileSync(join(dir, `${n}.out.yaml`), p);
  else writeFileSync(join(dir, `${n}.err.txt`), errorMessage(p.error) + '\n');
  const f = fn[n];
  if (typeof f === 'string') writeFileSync(join(dir, `${n}.fn.yaml`), f);
}
console.log(`${names.length} cases`);
