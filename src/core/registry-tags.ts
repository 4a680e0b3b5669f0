/**
 * Which tags each catalog registry serves for each catalog function, as data, and the one check
 * that a tag form (`vX.Y.Z`, `vX.Y`/`vX`, `latest`/no tag, `unstable`) is one a registry publishes.
 * The built-in registry (sdk/registry.ts) intersects these with what a built-in implements, so a
 * floating tag never resolves to a version its registry never served (builtins/docs/README.md,
 * "Registries: what each one serves").
 *
 * - `gcr.io/kpt-fn/`: the releases of GoogleContainerTools/kpt-functions-catalog (every tag of
 *   src/core/catalog-versions.ts except the successor's), each pushed as `vX.Y.Z`, `vX.Y` and `vX`
 *   (that repository's `scripts/git-tag-parser.sh` `get_versions` and `scripts/go-function-release.sh`),
 *   and `unstable` from the default branch (`functions/go/Makefile`, `TAG ?= unstable`). It
 *   publishes no `latest` (GoogleContainerTools/kpt-functions-catalog `VERSIONING.md` at every
 *   release tag: "We do NOT support the `latest` tag"; kptdev/kpt issue #3134, where
 *   `docker pull gcr.io/kpt-fn/gatekeeper` fails on `latest`).
 * - `ghcr.io/kptdev/krm-functions-catalog/`: everything gcr.io/kpt-fn served (kptdev/kpt HEAD pulls
 *   pre-migration releases and floating tags from it: `package-examples/guestbook/Kptfile` runs
 *   `create-setters:v0.1`, `set-namespace:v0.4`, `kubeconform:v0.1`; its book names
 *   `set-labels:v0.1.5`), the successor's own tags (kptdev/krm-functions-catalog tags from
 *   2025-06-07 on; `.github/workflows/after-tag-with-version.yaml` pushes them with
 *   `IMAGE_REPO=ghcr.io/kptdev/krm-functions-catalog`, never to gcr.io) and the releases after the
 *   mirrored snapshot listed below, with `latest` (kptdev/kpt at v1.0.0-beta.67 appends `:latest`
 *   to an image without tag and its e2e tests pull `:latest` images from here).
 * - `ghcr.io/kptdev/krm-functions-catalog/wasm/` and `gcr.io/kpt-fn-demo/`: WASM builds pushed by
 *   hand, only the exact tags kpt's tests name (kptdev/kpt `e2e/testdata/fn-render/basicpipeline-wasm`
 *   at HEAD and at v1.0.0-beta.56).
 * - `gcr.io/kpt-fn-contrib/` and `ghcr.io/kptdev/krm-functions-catalog/krm-fn-contrib/`: the
 *   contrib functions (`scripts/function-release.sh`: curated functions go to `gcr.io/kpt-fn`),
 *   none of which krmfn builds in.
 */
import { builtinVersions } from './catalog-versions.ts';
import { BETA56_IMAGE_PREFIX, CATALOG_PREFIXES, compareVersions, parseImageRef } from './image.ts';

/** What one registry publishes for one catalog function. */
export interface RegistryTags {
  /** Registry prefix with trailing `/`, e.g. `gcr.io/kpt-fn/`. */
  readonly registry: string;
  /** Released `vX.Y.Z` tags it serves, oldest first. */
  readonly versions: readonly string[];
  /** `vX.Y` and `vX` floating tags. */
  readonly floating: boolean;
  /** `latest` (also what an image without tag or digest pulls). */
  readonly latest: boolean;
  /** `unstable` (the default branch's build). */
  readonly unstable: boolean;
}

export const GCR_REGISTRY = BETA56_IMAGE_PREFIX;
export const GHCR_REGISTRY = 'ghcr.io/kptdev/krm-functions-catalog/';

/**
 * Tags only the successor released (kptdev/krm-functions-catalog, from its 2025-06-07 migration;
 * absent from GoogleContainerTools/kpt-functions-catalog): published on ghcr.io only.
 */
const SUCCESSOR_TAGS: Readonly<Record<string, string>> = {
  'apply-replacements': 'v0.1.2',
  'apply-setters': 'v0.2.1',
  'set-labels': 'v0.2.1',
  starlark: 'v0.5.1',
};

/**
 * Releases to ghcr.io after the mirrored snapshot (2025-06-25), whose source krmfn could not read:
 * nephio-project/nephio issue #981 (2025-10-20, "the list of up to date images": set-labels v0.2.2,
 * starlark v0.5.2, apply-setters v0.2.2, …, set-namespace v0.4.2), kptdev/krm-functions-catalog
 * `functions/go/set-namespace/README.md` ("Known Issues": v0.4.2–v0.4.5), kptdev/kpt HEAD
 * (`e2e/testdata/fn-render/basicpipeline-semver`: set-labels v0.2.3–v0.2.5; kubeconform, new in
 * kptdev/kpt issue #4283, 2025-10). A built-in runs one of these only where it lists it itself.
 */
const LATER_GHCR_RELEASES: Readonly<Record<string, string>> = {
  'apply-replacements': 'v0.1.3',
  'apply-setters': 'v0.2.2',
  'create-setters': 'v0.1.1',
  'enable-gcp-services': 'v0.1.1',
  'ensure-name-substring': 'v0.2.1',
  'export-terraform': 'v0.3.1',
  gatekeeper: 'v0.2.2',
  kubeconform: 'v0.1.0',
  'list-setters': 'v0.1.1',
  'remove-local-config-resources': 'v0.1.1',
  'render-helm-chart': 'v0.3.1',
  'search-replace': 'v0.2.1',
  'set-annotations': 'v0.1.5',
  'set-enforcement-action': 'v0.1.1',
  'set-image': 'v0.1.2',
  'set-labels': 'v0.2.2 v0.2.3 v0.2.4 v0.2.5',
  'set-namespace': 'v0.4.2 v0.4.3 v0.4.4 v0.4.5',
  'set-project-id': 'v0.2.1',
  starlark: 'v0.5.2',
  'upsert-resource': 'v0.2.1',
};

/** Hand-pushed WASM builds: registry → function → exact tags. */
const WASM_BUILDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'gcr.io/kpt-fn-demo/': { 'set-labels': 'v0.2.0', 'set-namespace': 'v0.5.0' },
  'ghcr.io/kptdev/krm-functions-catalog/wasm/': { 'set-labels': 'v0.2.4', 'set-namespace': 'v0.5.1' },
};

function words(line: string | undefined): string[] {
  return line ? line.split(' ') : [];
}

function googleEra(name: string): string[] {
  const successor = new Set(words(SUCCESSOR_TAGS[name]));
  return builtinVersions(name).filter((v) => !successor.has(v));
}

/** Whether any catalog registry ever published function `name` (false for a host's own built-ins). */
export function catalogPublishes(name: string): boolean {
  return (
    builtinVersions(name).length > 0 ||
    name in LATER_GHCR_RELEASES ||
    Object.values(WASM_BUILDS).some((builds) => name in builds)
  );
}

/** The tags `registry` (a catalog prefix with trailing `/`) serves for function `name`. */
export function registryTags(registry: string, name: string): RegistryTags {
  if (registry === GCR_REGISTRY)
    return { registry, versions: googleEra(name), floating: true, latest: false, unstable: true };
  if (registry === GHCR_REGISTRY) {
    const versions = [...new Set([...builtinVersions(name), ...words(LATER_GHCR_RELEASES[name])])];
    return { registry, versions: versions.sort(compareVersions), floating: true, latest: true, unstable: true };
  }
  const builds = WASM_BUILDS[registry];
  return { registry, versions: words(builds?.[name]), floating: false, latest: false, unstable: false };
}

/** The catalog registry prefix of an image (a short name is beta.56's `gcr.io/kpt-fn/`), or undefined. */
export function catalogRegistry(image: string): string | undefined {
  const ref = parseImageRef(image.includes('/') ? image : BETA56_IMAGE_PREFIX + image);
  const prefix = ref.repository + '/';
  return CATALOG_PREFIXES.includes(prefix) ? prefix : undefined;
}

/** The registry name as users write it (no trailing `/`). */
export function registryLabel(registry: string): string {
  return registry.replace(/\/$/, '');
}

/**
 * Whether the registry publishes this form of tag at all: an exact `vX.Y.Z` always (its list
 * decides), `vX.Y`/`vX` when it pushes floating tags, `latest` or no tag when it has `latest`,
 * `unstable` when it builds the default branch. A digest with no tag is a pin, always a form.
 */
export function servesTagForm(tags: RegistryTags, tag: string, digest: string): boolean {
  if (tag === '') return digest !== '' || tags.latest;
  if (tag === 'latest') return tags.latest;
  if (tag === 'unstable') return tags.unstable;
  if (/^v\d+(\.\d+)?$/.test(tag)) return tags.floating;
  return true;
}
