/**
 * What a function says about itself: `KRMFunctionDefinition` (KEP-2906, kyaml
 * `config.kubernetes.io/v1alpha1`) and `--help` text, both generated from the descriptor's
 * config schema, so the schema stays the single source of truth (docs/sdk.md, "Design").
 */
import type { KrmFunction } from './define.ts';
import { DEFAULT_CONFIG_API_VERSION } from './config.ts';

type Obj = Record<string, unknown>;

/** The function's `KRMFunctionDefinition` as plain data. */
export function functionDefinition(fn: KrmFunction): Obj {
  const kinds = fn.config ? (typeof fn.config.kind === 'string' ? [fn.config.kind] : [...fn.config.kind]) : [];
  const apiVersion = fn.config?.apiVersions?.[0] ?? DEFAULT_CONFIG_API_VERSION;
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const kind = kinds[0] ?? pascal(fn.name);
  const spec: Obj = {
    group,
    names: { kind },
    description: fn.usage ?? '',
    versions: [{ name: version, schema: { openAPIV3Schema: fn.config?.schema ?? { type: 'object' } } }],
  };
  return {
    apiVersion: 'config.kubernetes.io/v1alpha1',
    kind: 'KRMFunctionDefinition',
    metadata: { name: `${kind.toLowerCase()}s.${group}` },
    spec,
  };
}

const pascal = (name: string): string => name.replace(/(^|[-_])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/** `--help` text: usage, the config forms and each config field with its type and description. */
export function helpText(fn: KrmFunction): string {
  const lines = [`${fn.name} (${fn.kind})`, ''];
  if (fn.usage) lines.push(fn.usage, '');
  lines.push(
    'Usage:',
    `  ${fn.name} < resource-list.yaml                 ResourceList on stdin, ResourceList on stdout`,
    `  ${fn.name} [-f config.yaml] [-d key=value]... FILE... | -   standalone: print the resulting resources`,
    '',
    'Flags:',
    '  -i, --input FILE        read the ResourceList from FILE instead of stdin',
    '  -o, --output FILE       write the output to FILE instead of stdout',
    '  -f, --fn-config FILE    use FILE as the functionConfig',
    '  -d, --data KEY=VALUE    add a key to a `function-input` ConfigMap functionConfig (repeatable)',
    '      --json              write JSON instead of YAML',
    '      --doc               print the documentation',
    '      --definition        print the KRMFunctionDefinition',
    '  -h, --help              print this help',
  );
  const schema = fn.config?.schema;
  if (fn.config && schema && typeof schema === 'object') {
    const kinds = typeof fn.config.kind === 'string' ? [fn.config.kind] : fn.config.kind;
    lines.push(
      '',
      `Config: a ConfigMap, or ${kinds.join(' / ')} (${(fn.config.apiVersions ?? [DEFAULT_CONFIG_API_VERSION]).join(', ')}).`,
    );
    const props = schema['properties'];
    const required = new Set((schema['required'] as string[] | undefined) ?? []);
    if (props && typeof props === 'object') {
      for (const [k, v] of Object.entries(props as Record<string, Obj>)) {
        const type = Array.isArray(v['type']) ? (v['type'] as string[]).join('|') : String(v['type'] ?? 'any');
        const desc = typeof v['description'] === 'string' ? `  ${v['description']}` : '';
        lines.push(`  ${k}${required.has(k) ? ' (required)' : ''}: ${type}${desc}`);
      }
    }
  }
  return lines.join('\n') + '\n';
}
