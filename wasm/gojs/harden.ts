/**
 * Go js/wasm programs reach JS through the values they are given, and every JS function leads to
 * the `Function` constructor (`anyFunction.constructor`), which evaluates code against the realm's
 * real global object (`process` in a Node worker, `fetch` in a browser worker). Worker entries call
 * `hardenRealm()` once at start-up, before any guest runs: the `constructor` of every function kind
 * is replaced by one that throws, so no guest can generate code or climb to the global object.
 * Host code never needs `Function(...)`; the in-thread executor is not hardened (and not a sandbox).
 */
const BLOCKED = 'code generation is disabled in the WASM worker';

export function hardenRealm(): void {
  const inert = function constructorDisabled(): never {
    throw new TypeError(BLOCKED);
  };
  const prototypes = [
    Function.prototype,
    Object.getPrototypeOf(async function () {}) as object,
    Object.getPrototypeOf(function* () {}) as object,
    Object.getPrototypeOf(async function* () {}) as object,
  ];
  for (const proto of prototypes) {
    Object.defineProperty(proto, 'constructor', {
      value: inert,
      writable: false,
      enumerable: false,
      configurable: false,
    });
  }
}
