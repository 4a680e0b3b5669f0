/**
 * The setup every "from a packed tarball" test shares: `npm pack` krmfn into a temp dir, install
 * that tarball into a throwaway `tool` project (never from a registry; krmfn's own dependencies
 * install as usual), scaffold function projects with the installed `krmfn init`, and write the
 * package that runs a built function as `exec:`. Used by test/package/authoring.test.ts and
 * test/web/authored-function.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

const NPM_ENV = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

export interface Ran {
  code: number;
  out: string;
  stdout: string;
}

/** Runs a command to completion (npm quietened), stdout and stderr captured. */
export function run(cmd: string, args: string[], cwd: string): Ran {
  const r = spawnSync(cmd, args, { cwd, env: NPM_ENV, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' };
}

export interface PackedKrmfn {
  /** The temp dir holding the tarball, `tool/` and whatever the test creates. */
  work: string;
  /** The installed `krmfn` executable (tool/node_modules/.bin/krmfn). */
  bin: string;
  remove(): void;
}

/** Packs this checkout (declarations built first when missing) and installs the tarball into `work/tool`. */
export function installPackedKrmfn(prefix: string): PackedKrmfn {
  if (!existsSync(join(ROOT, 'dist', 'types', 'sdk', 'index.d.ts'))) {
    execFileSync(process.execPath, ['scripts/build.mjs', '--types'], { cwd: ROOT, stdio: 'ignore' });
  }
  const work = mkdtempSync(join(tmpdir(), prefix));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
      env: NPM_ENV,
    }),
  ) as { filename: string }[];
  const tool = join(work, 'tool');
  mkdirSync(tool);
  writeFileSync(join(tool, 'package.json'), JSON.stringify({ name: 'tool', private: true }));
  const install = run('npm', ['install', '--ignore-scripts', join(work, packed[0].filename)], tool);
  if (install.code !== 0) throw new Error(`npm install of the krmfn tarball failed:\n${install.out}`);
  return {
    work,
    bin: join(tool, 'node_modules', '.bin', 'krmfn'),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** The scaffold's mutator config: `value` is the annotation value it sets. */
export const TEAM_CONFIG =
  'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetTeam\nmetadata:\n  name: team\n  annotations:\n    config.kubernetes.io/local-config: "true"\nvalue: payments\n';
export const APP_CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app # the app\ndata:\n  k: v\n';

/** A package whose pipeline runs `fnFile` (a `krmfn build` exec bundle) with TEAM_CONFIG. */
export function writeExecPackage(dir: string, fnFile: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'Kptfile'),
    `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\npipeline:\n  mutators:\n    - exec: node ${fnFile}\n      configPath: team.yaml\n`,
  );
  writeFileSync(join(dir, 'team.yaml'), TEAM_CONFIG);
  writeFileSync(join(dir, 'cm.yaml'), APP_CONFIGMAP);
}
