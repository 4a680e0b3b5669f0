#!/usr/bin/env node
// A small exec KRM function for golden tests: `node fns/krm.mjs <op> [args...]`.
// It reads a ResourceList on stdin and writes one on stdout with the `yaml` package (so comments
// and styles are NOT preserved by the function itself: kpt's restoration has to bring them back).
// Ops:
//   annotate KEY VALUE      set metadata.annotations[KEY] on every item
//   label KEY VALUE         set metadata.labels[KEY] on every item
//   namespace NS            set metadata.namespace on every item except Kptfiles
//   generate NAME [NS]      append a ConfigMap NAME (no path annotation: kpt picks the default path)
//   move PATH               move every non-Kptfile item to PATH with fresh indexes
//   results                 report an error-severity and an info result, exit 0
//   config                  copy functionConfig.data into every item's annotations (prefix cfg/)
//   stderr TEXT             print TEXT on stderr, change nothing
//   fail CODE TEXT          print TEXT on stderr and exit CODE, with a result
//   escape                  set the first item's path to ../escape.yaml
//   duplicate               emit the first item twice
//   drop-kind KIND          remove items of KIND
//   not-krm                 append an item without apiVersion
//   strip-ids               remove the id annotations (kpt then cannot restore comments)
//   strip-paths             remove every path and index annotation (kpt then re-files every item)
//   legacy-path PATH        set only config.kubernetes.io/path of non-Kptfile items (kpt syncs the internal key)
//   mismatch                set the two path annotations of the first non-Kptfile item to different values
import { parse, stringify } from 'yaml';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const rl = parse(Buffer.concat(chunks).toString('utf8')) ?? {};
const items = rl.items ?? [];
const [op, ...args] = process.argv.slice(2);
const meta = (o) => (o.metadata ??= {});
const ann = (o) => (meta(o).annotations ??= {});
let exitCode = 0;
const results = [];

switch (op) {
  case 'annotate':
    for (const o of items) ann(o)[args[0]] = args[1];
    break;
  case 'label':
    for (const o of items) (meta(o).labels ??= {})[args[0]] = args[1];
    break;
  case 'namespace':
    for (const o of items) if (o.kind !== 'Kptfile') meta(o).namespace = args[0];
    break;
  case 'generate': {
    const o = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: args[0] }, data: { generated: 'true' } };
    if (args[1]) o.metadata.namespace = args[1];
    items.push(o);
    break;
  }
  case 'move': {
    let i = 0;
    for (const o of items) {
      if (o.kind === 'Kptfile') continue;
      const a = ann(o);
      a['config.kubernetes.io/path'] = a['internal.config.kubernetes.io/path'] = args[0];
      a['config.kubernetes.io/index'] = a['internal.config.kubernetes.io/index'] = String(i++);
    }
    break;
  }
  case 'results':
    results.push({
      message: 'replicas must be at least 4',
      severity: 'error',
      resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      field: { path: 'spec.replicas', currentValue: 1, proposedValue: 4 },
      file: { path: 'deploy.yaml', index: 0 },
    });
    results.push({ message: 'checked everything' });
    break;
  case 'config':
    for (const o of items)
      for (const [k, v] of Object.entries(rl.functionConfig?.data ?? {})) ann(o)[`cfg/${k}`] = String(v);
    break;
  case 'stderr':
    process.stderr.write(args.join(' ').replace(/\\n/g, '\n') + '\n');
    break;
  case 'fail':
    process.stderr.write(args.slice(1).join(' ') + '\n');
    results.push({ message: 'something went wrong', severity: 'error' });
    exitCode = Number(args[0]);
    break;
  case 'escape':
    ann(items[0])['config.kubernetes.io/path'] = ann(items[0])['internal.config.kubernetes.io/path'] = '../escape.yaml';
    break;
  case 'duplicate':
    items.push(JSON.parse(JSON.stringify(items[0])));
    break;
  case 'drop-kind':
    rl.items = items.filter((o) => o.kind !== args[0]);
    break;
  case 'not-krm':
    items.push({ kind: 'Thing', metadata: { name: 'x' } });
    break;
  case 'strip-ids':
    for (const o of items) {
      delete ann(o)['config.k8s.io/id'];
      delete ann(o)['internal.config.kubernetes.io/id'];
    }
    break;
  case 'strip-paths':
    for (const o of items) {
      for (const k of ['path', 'index']) {
        delete ann(o)[`config.kubernetes.io/${k}`];
        delete ann(o)[`internal.config.kubernetes.io/${k}`];
      }
    }
    break;
  case 'legacy-path': {
    let i = 0;
    for (const o of items) {
      if (o.kind === 'Kptfile') continue;
      ann(o)['config.kubernetes.io/path'] = args[0];
      ann(o)['config.kubernetes.io/index'] = String(i++);
    }
    break;
  }
  case 'mismatch': {
    const o = items.find((x) => x.kind !== 'Kptfile');
    ann(o)['config.kubernetes.io/path'] = 'one.yaml';
    ann(o)['internal.config.kubernetes.io/path'] = 'two.yaml';
    break;
  }
  default:
    process.stderr.write(`unknown op ${op}\n`);
    process.exit(2);
}
if (op !== 'drop-kind') rl.items = items;
if (results.length) rl.results = results;
process.stdout.write(stringify(rl));
process.exitCode = exitCode;
