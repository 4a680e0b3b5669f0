// Compares our parse/emit, the real ResourceList round trip and normalizeAfterFunction with the
// kpt outputs recorded by kpt-check.sh for one directory; prints counts and the mismatching files.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { parseYamlFile, emitYamlFile, normalizeAfterFunction } from '../../../src/core/yaml/index.ts';
import { throughResourceList } from '../resource-list.ts';
const D = process.argv[2];
let pureOk = 0,
  pureBad = 0,
  fnOk = 0,
  fnBad = 0,
  normBad = 0,
  errs = 0;
const bad: string[] = [];
for (const f of readdirSync(`${D}/in`).sort()) {
  const input = readFileSync(`${D}/in/${f}`, 'utf8');
  let p;
  const errFile = `${D}/pure/${f.replace(/\.yaml$/, '.err')}`;
  if (existsSync(errFile)) {
    const want = readFileSync(errFile, 'utf8')
      .replace(/^Error: [^:]*: (MalformedYAMLError: )?/, '')
      .trim();
    let got = '';
    try {
      parseYamlFile(input);
    } catch (e) {
      got = (e as Error).message;
    }
    if (got === want) pureOk++;
    else {
      errs++;
      bad.push(`${f} ERR want ${want} got ${got}`);
    }
    continue;
  }
  try {
    p = parseYamlFile(input);
  } catch (e) {
    errs++;
    bad.push(`${f} ERR ${(e as Error).message}`);
    continue;
  }
  const pure = emitYamlFile(p.docs, p.seqIndent);
  if (pure === readFileSync(`${D}/pure/${f}`, 'utf8')) pureOk++;
  else {
    pureBad++;
    bad.push(`${f} pure`);
  }
  if (existsSync(`${D}/fn/${f}`)) {
    const real = emitYamlFile(throughResourceList(parseYamlFile(input)), p.seqIndent);
    const alone = emitYamlFile(throughResourceList(parseYamlFile(input), 'alone'), p.seqIndent);
    if (real === readFileSync(`${D}/fn/${f}`, 'utf8')) fnOk++;
    else {
      fnBad++;
      bad.push(`${f} fn`);
    }
    const q = parseYamlFile(input);
    for (const d of q.docs) normalizeAfterFunction(d);
    if (emitYamlFile(q.docs, q.seqIndent) !== alone) {
      normBad++;
      bad.push(`${f} norm`);
    }
  }
}
console.log({ pureOk, pureBad, fnOk, fnBad, normBad, errs });
console.log(bad.join('\n'));
