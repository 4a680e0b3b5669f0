/**
 * `render` and `eval` load a runtime only when a pipeline needs it: their static import closures
 * hold the engine and the built-ins but not the Starlark interpreter, the WASM host, the OCI
 * client, the remote, container or sandbox runtimes, gRPC or the server (src/engine/lazy-runtime.ts,
 * src/node/cli-engine.ts); those arrive through a dynamic import at first need. The library's
 * index still exports them all.
 */
import { expect, test } from 'vitest';
import { staticClosure } from '../harness/static-imports.ts';

const RUNTIME_MODULES =
  /^(src\/starlark\/|src\/runtimes\/(starlark|wasm|remote)|wasm\/|src\/node\/(wasm|sandbox|grpc|serve|oci)\/|src\/node\/runtimes\/|src\/core\/oci\/client)/;

test.each(['src/node/commands/render.ts', 'src/node/commands/eval.ts'])(
  '%s statically imports no runtime a pipeline may not use',
  (command) => {
    const loaded = [...staticClosure(command)];
    expect(loaded.filter((f) => RUNTIME_MODULES.test(f)).sort()).toEqual([]);
    // The closure is real: it holds the engine and the built-in registry.
    expect(loaded).toContain('src/engine/render.ts');
    expect(loaded).toContain('builtins/index.ts');
  },
);

test('the library index still re-exports the runtimes (the closure check can fail)', () => {
  const loaded = [...staticClosure('src/index.ts')];
  expect(loaded).toContain('src/runtimes/starlark.ts');
  expect(loaded).toContain('src/runtimes/wasm.ts');
});
