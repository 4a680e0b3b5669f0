/**
 * go-yaml v3 as an optional differential oracle for the YAML fuzz target. Set KRMFN_GOYAML_ORACLE
 * to a program (kept outside the repo) that reads a JSON array of `{ "text", "wide" }` on stdin,
 * decodes each text into a yaml.Node and encodes it with kyaml's settings (indent 2, compact
 * sequences unless `wide`: kyaml/yaml/alias.go NewEncoder at kustomize kyaml/v0.15.0, with the
 * go-yaml fork it uses), and writes a JSON array of the outputs, `ERR: message` for a decode error.
 * Unset, `goYamlRoundTrip` returns undefined and the differential is skipped.
 */
import { spawnSync } from 'node:child_process';

const ORACLE = process.env.KRMFN_GOYAML_ORACLE ?? '';

export const goYamlOracleEnabled = ORACLE !== '';

/** go-yaml's bytes for `text` (one document), `ERR: …` when it refuses it; undefined without an oracle. */
export function goYamlRoundTrip(text: string, wide: boolean): string | undefined {
  if (!ORACLE) return undefined;
  const r = spawnSync(ORACLE, [], { input: JSON.stringify([{ text, wide }]), maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`go-yaml oracle failed: ${r.stderr.toString().slice(0, 500)}`);
  const out: unknown = JSON.parse(r.stdout.toString());
  if (!Array.isArray(out) || typeof out[0] !== 'string') throw new Error('go-yaml oracle: unexpected output');
  return out[0];
}
