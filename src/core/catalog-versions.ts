/**
 * The catalog's released versions, as data: for every function published under `gcr.io/kpt-fn/`
 * or `ghcr.io/kptdev/krm-functions-catalog/`, each released `vX.Y.Z` and the behaviour generation
 * it belongs to (the earliest release whose function code is identical).
 *
 * Source: the git tags of GoogleContainerTools/kpt-functions-catalog and of its successor
 * kptdev/krm-functions-catalog (snapshot of 2025-06-25, newest tags `set-labels/v0.2.1`,
 * `apply-setters/v0.2.1`, `apply-replacements/v0.1.2`, `starlark/v0.5.1`). Every tag form the
 * release workflows publish an image for counts: `NAME/vX.Y.Z`, `functions/go/NAME/vX.Y.Z`,
 * `functions/ts/NAME/vX.Y.Z`, `go/NAME/vX.Y.Z` (kptdev/krm-functions-catalog
 * `.github/workflows/release.yaml` builds images from `functions/<lang>/<name>/vX.Y.Z` tags and
 * `after-tag-with-version.yaml` adds the short `NAME/vX.Y.Z` tag). Left out: the kpt v0 era batch
 * tags `release-go-functions-v0.0.N` / `release-ts-functions-v0.N.N`, and the branch-like tags
 * `search-replace/v0.1`, `export-terraform/v0.3` (floating image tags, answered by `vX.Y` below).
 *
 * Generations: `vA=vB` means the function's code (sources, go.mod/go.sum or package files; not
 * docs, tests, Dockerfiles or generated help) at tag vA is byte-identical to vB's, so vA behaves as
 * vB. Every other release may differ from its predecessor and is its own generation.
 *
 * Built-ins may implement versions released after the snapshot (a descriptor's own `versions`,
 * sdk/registry.ts). Which registry serves which of these tags, and the later releases, is
 * ./registry-tags.ts: a tag resolves only among what its image's registry serves.
 */

const RELEASES: Readonly<Record<string, string>> = {
  'annotate-apply-time-mutations': 'v0.1.0',
  'apply-replacements': 'v0.1.0 v0.1.1 v0.1.2',
  'apply-setters': 'v0.1.0 v0.1.1 v0.2.0 v0.2.1',
  'create-setters': 'v0.1.0',
  'enable-gcp-services': 'v0.1.0',
  'enforce-gatekeeper': 'v0.1.0',
  'ensure-name-substring': 'v0.1.0 v0.1.1 v0.2.0',
  'export-terraform': 'v0.1.0 v0.2.0 v0.3.0',
  fix: 'v0.2.0 v0.2.1',
  format: 'v0.1.0',
  gatekeeper: 'v0.1.1 v0.1.2 v0.1.3=v0.1.2 v0.2.0 v0.2.1',
  'generate-folders': 'v0.1.1',
  kubeval: 'v0.1.0 v0.1.1 v0.1.2 v0.2.0 v0.2.1 v0.3.0',
  'list-setters': 'v0.1.0',
  'preview-hierarchy': 'v0.1.0',
  'remove-local-config-resources': 'v0.1.0',
  'render-helm-chart': 'v0.1.0 v0.2.0 v0.2.1 v0.2.2 v0.3.0',
  'search-replace': 'v0.1.0 v0.1.1 v0.2.0',
  'set-annotation': 'v0.1.0 v0.1.1=v0.1.0 v0.1.2',
  'set-annotations': 'v0.1.3 v0.1.4',
  'set-enforcement-action': 'v0.1.0',
  'set-image': 'v0.1.0 v0.1.1',
  'set-label': 'v0.1.0 v0.1.1=v0.1.0 v0.1.2',
  'set-labels': 'v0.1.3 v0.1.4 v0.1.5 v0.2.0 v0.2.1',
  'set-name-prefix': 'v0.0.1 v0.0.2=v0.0.1 v0.0.3=v0.0.1',
  'set-namespace': 'v0.1.0 v0.1.1=v0.1.0 v0.1.2 v0.1.3 v0.1.4 v0.2.0 v0.3.0 v0.3.1 v0.3.2 v0.3.3 v0.3.4 v0.4.0 v0.4.1',
  'set-project-id': 'v0.1.0 v0.2.0',
  sops: 'v0.1.0 v0.2.0 v0.3.0',
  starlark: 'v0.1.0 v0.1.1 v0.1.2 v0.2.0 v0.2.1 v0.2.2 v0.3.0 v0.4.0 v0.4.1 v0.4.2 v0.4.3 v0.5.0 v0.5.1',
  'upsert-resource': 'v0.1.0 v0.2.0',
};

/** One released version of a catalog function. */
export interface CatalogRelease {
  /** `vX.Y.Z` as tagged. */
  readonly version: string;
  /** The earliest release with identical function code (the version itself when it changed). */
  readonly generation: string;
}

const parsed = new Map<string, readonly CatalogRelease[]>(
  Object.entries(RELEASES).map(([name, line]) => [
    name,
    Object.freeze(
      line.split(' ').map((entry) => {
        const [version, same] = entry.split('=') as [string, string | undefined];
        return Object.freeze({ version, generation: same ?? version });
      }),
    ),
  ]),
);

/** Every catalog function name the table knows, sorted. */
export function catalogFunctionNames(): readonly string[] {
  return [...parsed.keys()].sort();
}

/** The releases of a catalog function, oldest first; empty for a name the catalog never released. */
export function catalogReleases(name: string): readonly CatalogRelease[] {
  return parsed.get(name) ?? [];
}

/**
 * The released versions (`vX.Y.Z`, oldest first) of a catalog function; empty for an unknown name.
 * The table semver-range resolution and the Starlark runtime build on.
 */
export function builtinVersions(name: string): readonly string[] {
  return catalogReleases(name).map((r) => r.version);
}

/** The behaviour generation of a released version, or undefined when it is not a release. */
export function releaseGeneration(name: string, version: string): string | undefined {
  return catalogReleases(name).find((r) => r.version === version)?.generation;
}
