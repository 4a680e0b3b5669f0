/**
 * Function descriptors (docs/sdk.md, "Design"). `defineFunction` returns a plain frozen object;
 * hosts (the engine's built-in runtime, `processResourceList`, `runCli`, `krmfn build`, tests)
 * decide how to run it. Authors default-export the descriptor.
 *
 * What each kind may do during `run`:
 * - mutator: change, add and remove items;
 * - validator: read only (writes throw `ReadOnlyError`); reports results;
 * - generator: add items; existing items may be edited but not removed.
 * Every kind may not change orchestrator annotations (`ProtectedFieldError`).
 */
import type { ImageInfo } from '../src/core/image.ts';
import type { KubeObject } from '../src/core/kube-object.ts';
import type { Result } from '../src/core/result.ts';
import type { ConfigSpec } from './config.ts';
import type { Resources } from './resources.ts';
import type { ResultBuilder } from './results.ts';
import type { Predicate, SelectorSpec } from './selectors.ts';

export type { ImageInfo };

export type FunctionKind = 'mutator' | 'validator' | 'generator';

export interface SelectOptions {
  /** Add an error result when nothing matches (kyaml `FailOnEmptyMatch`). */
  failOnEmptyMatch?: boolean;
}

export interface FnContext<C = undefined> {
  /** The items, in input order. */
  readonly items: Resources;
  /** The typed, coerced, validated config (`undefined` when the function declares none). */
  readonly config: C;
  /** The raw functionConfig as a read-only object, or undefined. */
  readonly functionConfig: KubeObject | undefined;
  readonly results: ResultBuilder;
  /** Writes a line to stderr (collected in-process; printed by `run`). */
  log(...args: unknown[]): void;
  /** Injected, read-only environment (empty by default). */
  readonly env: Readonly<Record<string, string>>;
  now(): number;
  readonly signal: AbortSignal;
  /** Set by the built-in runtime: the catalog image and version being emulated. */
  readonly image: ImageInfo | undefined;
  /**
   * Overrides the exit code the SDK would choose (0 without error results, 1 with). Catalog
   * emulations use it where an upstream SDK generation exits differently (docs/catalog.md, "SDK generations: how errors and results surface").
   */
  exitCode: number | undefined;
  /** Items matching a selector spec or predicate. */
  select(sel: SelectorSpec | Predicate, opts?: SelectOptions): KubeObject[];
}

export type RunReturn = void | Result[] | Promise<void | Result[]>;

export interface FunctionDefinition<C> {
  name: string;
  /** Config declaration; omit for functions without config. */
  config?: ConfigSpec<C>;
  /** One paragraph shown by `--help`. */
  usage?: string;
  /** Longer documentation (markdown), shown by `--doc`. */
  doc?: string;
  run(ctx: FnContext<C>): RunReturn;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a function of unknown config type must accept any config
export interface KrmFunction<C = any> extends FunctionDefinition<C> {
  readonly kind: FunctionKind;
  readonly isKrmFunction: true;
}

export function defineFunction<C = undefined>(kind: FunctionKind, spec: FunctionDefinition<C>): KrmFunction<C> {
  if (!spec.name) throw new TypeError('defineFunction: name is required');
  if (typeof spec.run !== 'function') throw new TypeError('defineFunction: run must be a function');
  return Object.freeze({ ...spec, kind, isKrmFunction: true as const });
}

export function defineMutator<C = undefined>(spec: FunctionDefinition<C>): KrmFunction<C> {
  return defineFunction('mutator', spec);
}
export function defineValidator<C = undefined>(spec: FunctionDefinition<C>): KrmFunction<C> {
  return defineFunction('validator', spec);
}
export function defineGenerator<C = undefined>(spec: FunctionDefinition<C>): KrmFunction<C> {
  return defineFunction('generator', spec);
}

/** Structural guard (descriptors cross bundles: never instanceof). */
export function isKrmFunction(v: unknown): v is KrmFunction {
  return typeof v === 'object' && v !== null && (v as { isKrmFunction?: unknown }).isKrmFunction === true;
}
