/** `krmfn eval`: kpt fn eval in process (implementation: src/node/commands/eval.ts). */
import { KPT_RUN_FLAGS } from './kpt-run-flags.ts';
import type { Command, FlagDef } from './types.ts';

const SELECTOR_FIELDS = [
  ['api-version', 'V', 'apiVersion'],
  ['kind', 'K', 'kind'],
  ['name', 'N', 'name'],
  ['namespace', 'NS', 'namespace'],
] as const;

function selectorFlags(prefix: 'match' | 'exclude'): FlagDef[] {
  const verb = prefix === 'match' ? 'select' : 'exclude';
  return [
    ...SELECTOR_FIELDS.map(([f, value, field]): FlagDef => ({
      name: `${prefix}-${f}`,
      kind: 'string',
      value,
      help: `${verb} resources whose ${field} is ${value}`,
    })),
    { name: `${prefix}-labels`, kind: 'list', value: 'k=v', help: `${verb} resources with this label (repeatable)` },
    {
      name: `${prefix}-annotations`,
      kind: 'list',
      value: 'k=v',
      help: `${verb} resources with this annotation (repeatable)`,
    },
  ];
}

export const evalSpec: Command = {
  name: 'eval',
  summary: 'Run one function over a directory or stdin (kpt fn eval)',
  description: 'Run one function over a directory or stdin (kpt fn eval), in process.',
  usage: ['eval [DIR | -] [flags] [-- [Kind] key=value ...]', 'fn eval [DIR | -] [flags] [-- [Kind] key=value ...]'],
  positionals: [
    {
      name: 'DIR',
      help: "Directory of resources (default: the current directory); '-' reads a ResourceList\nor a YAML stream from stdin and writes a ResourceList to stdout.",
    },
    { name: 'key=value', help: "After '--': the function's ConfigMap data; a first argument without '=' is its kind." },
  ],
  flags: [
    {
      name: 'image',
      short: 'i',
      kind: 'string',
      value: 'IMAGE',
      help: 'function image (short names get gcr.io/kpt-fn/)',
    },
    { name: 'exec', kind: 'string', value: 'CMD', help: 'run an executable as the function (no --allow-exec needed)' },
    { name: 'tag', kind: 'string', value: 'TAG', help: 'tag of a short --image name (1.0.0-beta.67)' },
    { name: 'fn-config', kind: 'string', value: 'FILE', help: 'functionConfig file (instead of key=value arguments)' },
    { name: 'save', short: 's', kind: 'bool', help: 'save the function to DIR/Kptfile (with --type)' },
    {
      name: 'type',
      short: 't',
      kind: 'string',
      value: 'TYPE',
      help: 'mutator or validator',
      choices: ['mutator', 'validator'],
    },
    { name: 'network', kind: 'bool', help: 'allow the function network access (container functions only)' },
    { name: 'mount', kind: 'list', value: 'SPEC', help: 'mount for the function container (container functions only)' },
    {
      name: 'env',
      short: 'e',
      kind: 'list',
      value: 'KEY[=VALUE]',
      help: 'environment variable for the function (container functions only)',
    },
    {
      name: 'as-current-user',
      kind: 'bool',
      help: 'run the function container as the current user (container functions only)',
    },
    {
      name: 'include-meta-resources',
      short: 'm',
      kind: 'bool',
      help: 'no longer needed: meta resources are included by default (an error, as in kpt)',
    },
    ...selectorFlags('match'),
    ...selectorFlags('exclude'),
    ...KPT_RUN_FLAGS,
  ],
  examples: [
    'krmfn eval . -i set-namespace:v0.4.1 -- namespace=prod',
    'krmfn eval . --image set-labels:v0.2.0 --match-kind Deployment -- app=web',
    'krmfn source . | krmfn eval - -i search-replace:v0.2.0 -- by-path=metadata.name put-value=x',
  ],
  kpt: true,
  load: () => import('../eval.ts').then((m) => m.runEval),
};
