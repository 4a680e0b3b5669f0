/**
 * Embedded templates for `krmfn init` (no network, no files read at run time: the CLI is one
 * bundled module). `projectFiles(name, kind, krmfnSpec)` returns every file of a new function project,
 * keyed by relative path. The project passes its own tests offline (`npm test` runs
 * `krmfn test`, which bundles src/fn.ts and runs the golden cases under testdata/).
 */
export type TemplateKind = 'mutator' | 'validator' | 'generator';

/** `set-owner` → `SetOwner` (the config kind). */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
}

function packageJson(name: string, kind: TemplateKind, krmfnSpec: string): string {
  return (
    JSON.stringify(
      {
        name,
        version: '0.1.0',
        private: true,
        type: 'module',
        description: `A KRM function (${kind}) written with krmfn/sdk`,
        scripts: {
          test: 'krmfn test',
          'test:node': 'krmfn build --target module && node --test test/',
          build: 'krmfn build src/fn.ts --out dist/fn.mjs && krmfn build src/fn.ts --target browser',
          typecheck: 'tsc --noEmit',
        },
        devDependencies: { esbuild: '0.28.2', krmfn: krmfnSpec, typescript: '~6.0.3' },
        // krmfn's \`prepare\` builds a clone (a no-op in a packed krmfn): nothing this project needs, so
        // npm's install-script review (npm 11.16+) need not ask about it.
        allowScripts: { krmfn: false },
      },
      null,
      2,
    ) + '\n'
  );
}

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "strict": true,
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "noImplicitReturns": true,
    "verbatimModuleSyntax": true,
    "allowImportingTsExtensions": true,
    "isolatedModules": true,
    "skipLibCheck": true,
    "noEmit": true,
    "types": []
  },
  "include": ["src/**/*.ts"]
}
`;

function configTs(kind: TemplateKind, cfgKind: string): string {
  const body: Record<TemplateKind, string> = {
    mutator: `/** What the function needs: the annotation to set on every resource. */
export interface Config {
  /** Value of the annotation. */
  value: string;
  /** Annotation key (default \`example.com/managed-by\`). */
  key: string;
}

export const configSchema: JsonSchema = {
  type: 'object',
  required: ['value'],
  additionalProperties: false,
  properties: {
    value: { type: 'string', minLength: 1, description: 'Value of the annotation.' },
    key: { type: 'string', default: 'example.com/managed-by', description: 'Annotation key.' },
  },
};`,
    validator: `/** What the function checks: every resource carries this label. */
export interface Config {
  /** The label every resource must have (default \`app\`). */
  label: string;
}

export const configSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    label: { type: 'string', default: 'app', description: 'The label every resource must have.' },
  },
};`,
    generator: `/** What the function generates: a ConfigMap with these data entries. */
export interface Config {
  /** Name of the generated ConfigMap. */
  name: string;
  /** Entries of its \`data\`. */
  data: Record<string, string>;
}

export const configSchema: JsonSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'Name of the generated ConfigMap.' },
    data: { type: 'object', additionalProperties: { type: 'string' }, default: {}, description: 'Entries of its data.' },
  },
};`,
  };
  return `import type { JsonSchema } from 'krmfn/sdk';

/** The config kind (apiVersion fn.kpt.dev/v1alpha1); a ConfigMap with the same keys works too. */
export const CONFIG_KIND = '${cfgKind}';

${body[kind]}
`;
}

function fnTs(name: string, kind: TemplateKind): string {
  const run: Record<TemplateKind, string> = {
    mutator: `import { defineMutator } from 'krmfn/sdk';
import { CONFIG_KIND, configSchema, type Config } from './config.ts';

export default defineMutator<Config>({
  name: '${name}',
  usage: 'Sets an annotation on every resource but local-config ones and the Kptfile.',
  config: { kind: CONFIG_KIND, schema: configSchema },
  run(ctx) {
    let changed = 0;
    // Local-config resources (function configs) and the package's Kptfile are not deployed: skip them.
    for (const obj of ctx.items.where((o) => !o.isLocalConfig && o.kind !== 'Kptfile')) {
      if (obj.getAnnotation(ctx.config.key) === ctx.config.value) continue;
      obj.setAnnotation(ctx.config.key, ctx.config.value);
      changed++;
    }
    ctx.results.info(\`set \${ctx.config.key} on \${changed} resource(s)\`);
  },
});`,
    validator: `import { defineValidator } from 'krmfn/sdk';
import { CONFIG_KIND, configSchema, type Config } from './config.ts';

export default defineValidator<Config>({
  name: '${name}',
  usage: 'Reports every resource (but local-config ones and the Kptfile) that lacks a label.',
  config: { kind: CONFIG_KIND, schema: configSchema },
  run(ctx) {
    // Local-config resources (function configs) and the package's Kptfile are not deployed: skip them.
    for (const obj of ctx.items.where((o) => !o.isLocalConfig && o.kind !== 'Kptfile')) {
      if (obj.getLabel(ctx.config.label) === undefined) {
        ctx.results.error(\`missing label \${ctx.config.label}\`, { object: obj, field: ['metadata', 'labels', ctx.config.label] });
      }
    }
  },
});`,
    generator: `import { defineGenerator } from 'krmfn/sdk';
import { CONFIG_KIND, configSchema, type Config } from './config.ts';

export default defineGenerator<Config>({
  name: '${name}',
  usage: 'Generates (or updates) a ConfigMap from the config.',
  config: { kind: CONFIG_KIND, schema: configSchema },
  run(ctx) {
    const cm = ctx.items.upsert({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: ctx.config.name },
      data: ctx.config.data,
    });
    if (!cm.source) cm.setSource({ path: \`\${ctx.config.name}.yaml\` });
    ctx.results.info(\`generated ConfigMap \${ctx.config.name}\`, { object: cm });
  },
});`,
  };
  return run[kind] + '\n';
}

const RESOURCES = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the web tier
  labels:
    app: web
spec:
  replicas: 2
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: local-notes
  annotations:
    config.kubernetes.io/local-config: "true"
data:
  note: left alone
`;

/** The body of an example config of each kind (after its metadata). */
function fnConfigBody(kind: TemplateKind): string {
  const body: Record<TemplateKind, string> = {
    mutator: 'value: platform-team\n',
    validator: 'label: app\n',
    generator: 'name: settings\ndata:\n  mode: fast\n',
  };
  return body[kind];
}

function fnConfig(kind: TemplateKind, cfgKind: string): string {
  return `apiVersion: fn.kpt.dev/v1alpha1
kind: ${cfgKind}
metadata:
  name: example
${fnConfigBody(kind)}`;
}

const ANN = (path: string, index: number): string => `    annotations:
      config.kubernetes.io/index: '${index}'
      config.kubernetes.io/path: '${path}'
      internal.config.kubernetes.io/index: '${index}'
      internal.config.kubernetes.io/path: '${path}'`;

function expected(kind: TemplateKind, cfgKind: string): string {
  const deployAnn =
    kind === 'mutator'
      ? `${ANN('resources.yaml', 0)}\n      example.com/managed-by: platform-team`
      : ANN('resources.yaml', 0);
  const svcAnn =
    kind === 'mutator'
      ? `${ANN('resources.yaml', 1)}\n      example.com/managed-by: platform-team`
      : ANN('resources.yaml', 1);
  const items = `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web # the web tier
    labels:
      app: web
${deployAnn}
  spec:
    replicas: 2
- apiVersion: v1
  kind: Service
  metadata:
    name: web
${svcAnn}
  spec:
    ports:
    - port: 80
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: local-notes
    annotations:
      config.kubernetes.io/local-config: "true"
      config.kubernetes.io/index: '2'
      config.kubernetes.io/path: 'resources.yaml'
      internal.config.kubernetes.io/index: '2'
      internal.config.kubernetes.io/path: 'resources.yaml'
  data:
    note: left alone
`;
  const generated =
    kind === 'generator'
      ? `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: settings
    annotations:
      config.kubernetes.io/path: settings.yaml
      config.kubernetes.io/index: "0"
      internal.config.kubernetes.io/path: settings.yaml
      internal.config.kubernetes.io/index: "0"
  data:
    mode: fast
`
      : '';
  const fc = fnConfig(kind, cfgKind)
    .split('\n')
    .filter(Boolean)
    .map((l) => `  ${l}`)
    .join('\n');
  const results: Record<TemplateKind, string> = {
    mutator: `results:
- message: set example.com/managed-by on 2 resource(s)
  severity: info
`,
    validator: `results:
- message: missing label app
  severity: error
  resourceRef:
    apiVersion: v1
    kind: Service
    name: web
  field:
    path: metadata.labels.app
  file:
    path: resources.yaml
    index: 1
`,
    generator: `results:
- message: generated ConfigMap settings
  severity: info
  resourceRef:
    apiVersion: v1
    kind: ConfigMap
    name: settings
  file:
    path: settings.yaml
`,
  };
  return `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
${items}${generated}functionConfig:
${fc}
${results[kind]}`;
}

/**
 * A case where the function must fail, one per kind: the recorded exit code makes a function that
 * stops failing fail its test. Directory name, input resources, config, expected output.
 */
interface FailingCase {
  dir: string;
  resources: string;
  config: string;
  expected: string;
}

function failingCase(kind: TemplateKind, cfgKind: string): FailingCase {
  const header = `apiVersion: fn.kpt.dev/v1alpha1\nkind: ${cfgKind}\nmetadata:\n  name: example\n`;
  const settings = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n';
  const settingsItem = `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: settings
${ANN('resources.yaml', 0)}
  data:
    mode: fast
`;
  const configRef = `  resourceRef:
    apiVersion: fn.kpt.dev/v1alpha1
    kind: ${cfgKind}
    name: example
`;
  const list = (items: string, config: string, results: string): string =>
    `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
${items}functionConfig:
${config
  .trimEnd()
  .split('\n')
  .map((l) => `  ${l}`)
  .join('\n')}
results:
${results}`;
  if (kind === 'mutator') {
    const config = `${header}value: ""\n`;
    return {
      dir: 'empty-value',
      resources: settings,
      config,
      expected: list(
        settingsItem,
        config,
        `- message: 'functionConfig is invalid: value: must NOT have fewer than 1 characters'
  severity: error
${configRef}  field:
    path: value
`,
      ),
    };
  }
  if (kind === 'validator') {
    const config = `${header}label: app\n`;
    return {
      dir: 'missing-label',
      resources: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 1\n',
      config,
      expected: list(
        `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api
${ANN('resources.yaml', 0)}
  spec:
    replicas: 1
`,
        config,
        `- message: missing label app
  severity: error
  resourceRef:
    apiVersion: apps/v1
    kind: Deployment
    name: api
  field:
    path: metadata.labels.app
  file:
    path: resources.yaml
`,
      ),
    };
  }
  const config = `${header}data:\n  color: blue\n`;
  return {
    dir: 'missing-name',
    resources: settings,
    config,
    expected: list(
      settingsItem,
      config,
      `- message: 'functionConfig is invalid: name: is required'
  severity: error
${configRef}  field:
    path: name
`,
    ),
  };
}

function testFile(): string {
  return `// node:test over the golden cases in testdata/ (run with: npm run test:node).
// \`npm test\` runs the same cases with \`krmfn test\`, no test framework needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goldenTests } from 'krmfn/sdk/testing';
import { nodeFixtures } from 'krmfn/sdk/node';
import fn from '../dist/fn.module.mjs';

const { dir, fs, update } = nodeFixtures(new URL('../testdata', import.meta.url).pathname);
for (const c of await goldenTests(fn, { dir, fs, update })) {
  test(c.name, async () => {
    const r = await c.run();
    assert.ok(r.ok, r.diff);
  });
}
`;
}

function readme(name: string, kind: TemplateKind, cfgKind: string): string {
  return `# ${name}

A KRM function (${kind}) written with krmfn's SDK (\`krmfn/sdk\`).

\`\`\`sh
npm install              # krmfn comes from the checkout or package \`krmfn init\` ran from (a file: dependency)
npm run typecheck        # tsc against krmfn's type declarations
npm test                 # golden cases in testdata/ (krmfn test; WRITE_GOLDEN_OUTPUT=1 rewrites them)
npm run build            # dist/fn.mjs: one file, runnable by node with no install
                         # and dist/fn.browser.mjs, for a browser preview (krmfn's docs/sdk.md)
node dist/fn.mjs --help  # usage generated from the config schema
\`\`\`

Run it with kpt (or \`krmfn render\`) as an exec function, in a package such as \`pkg/\`:

\`\`\`yaml
# pkg/Kptfile
apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
pipeline:
  mutators:
    - exec: node ./dist/fn.mjs
      configPath: fn-config.yaml
---
# pkg/fn-config.yaml (local-config: the function's input, not one of the package's resources)
apiVersion: fn.kpt.dev/v1alpha1
kind: ${cfgKind}
metadata:
  name: config
  annotations:
    config.kubernetes.io/local-config: "true"
${fnConfigBody(kind)}\`\`\`

\`kpt fn render pkg --allow-exec\` / \`krmfn render pkg --allow-exec\`, from this directory: an \`exec:\` command runs
where kpt runs, so \`./dist/fn.mjs\` is this project's build. The config may also be a ConfigMap with the same keys
(\`kpt fn eval --exec ./dist/fn.mjs -- key=value\`); values are coerced by the schema in \`src/config.ts\`.

Layout: \`src/fn.ts\` (the function), \`src/config.ts\` (config type and JSON Schema), \`testdata/<case>/\`
(resources, \`_fnconfig.yaml\`, \`_expected.yaml\`: the whole expected output ResourceList, \`_expected_status.yaml\`:
the expected exit code and stderr), \`test/\` (node:test). Each kind comes with a case that must fail, so a function
that stops failing fails its test. \`krmfn test --update\` rewrites the expected files from the actual run.
`;
}

/**
 * `krmfnSpec` is the npm dependency spec of krmfn the project installs: `krmfn init` passes a
 * `file:` spec pointing at the krmfn it runs from, so no registry needs to hold krmfn.
 */
export function projectFiles(name: string, kind: TemplateKind, krmfnSpec: string): Record<string, string> {
  const cfgKind = pascalCase(name) || 'FunctionConfig';
  const failing = failingCase(kind, cfgKind);
  return {
    'package.json': packageJson(name, kind, krmfnSpec),
    'tsconfig.json': TSCONFIG,
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': readme(name, kind, cfgKind),
    'src/config.ts': configTs(kind, cfgKind),
    'src/fn.ts': fnTs(name, kind),
    'testdata/basic/resources.yaml': RESOURCES,
    'testdata/basic/_fnconfig.yaml': fnConfig(kind, cfgKind),
    'testdata/basic/_expected.yaml': expected(kind, cfgKind),
    // The basic validator case reports the unlabelled Service: an error result, exit code 1.
    'testdata/basic/_expected_status.yaml': `exitCode: ${kind === 'validator' ? 1 : 0}\n`,
    [`testdata/${failing.dir}/resources.yaml`]: failing.resources,
    [`testdata/${failing.dir}/_fnconfig.yaml`]: failing.config,
    [`testdata/${failing.dir}/_expected.yaml`]: failing.expected,
    [`testdata/${failing.dir}/_expected_status.yaml`]: 'exitCode: 1\n',
    'test/golden.test.mjs': testFile(),
  };
}
