/**
 * Which ABI a compiled module speaks (docs/wasm.md, "WASI command (the primary ABI)"), decided from its exports and imports before
 * anything is instantiated:
 * - `wasi`: exports `_start` and a memory, imports only `wasi_snapshot_preview1.*` (plus, at most, one
 *   imported memory, which the host then supplies with the cap as its maximum);
 * - `gojs`: Go's `GOOS=js GOARCH=wasm` port: exports `run`, `resume`, `getsp`, `mem` and imports
 *   from `go` (Go < 1.21) or `gojs` (Go >= 1.21).
 * Anything else is refused with the list of its exports and import modules.
 */
import { WasmHostError } from './errors.ts';

export interface ImportedMemory {
  module: string;
  name: string;
}

export type ModuleAbi = { abi: 'wasi'; importedMemory?: ImportedMemory } | { abi: 'gojs'; namespace: 'go' | 'gojs' };

const WASI_NAMESPACE = 'wasi_snapshot_preview1';

export function classifyModule(module: WebAssembly.Module): ModuleAbi {
  const exports = WebAssembly.Module.exports(module);
  const imports = WebAssembly.Module.imports(module);
  const exported = new Map(exports.map((e) => [e.name, e.kind]));
  const importModules = [...new Set(imports.map((i) => i.module))];

  const goNamespace = importModules.find((m) => m === 'go' || m === 'gojs');
  if (
    goNamespace &&
    ['run', 'resume', 'getsp'].every((n) => exported.get(n) === 'function') &&
    exported.get('mem') === 'memory'
  ) {
    const foreign = importModules.filter((m) => m !== goNamespace);
    if (foreign.length > 0)
      throw abiError(`Go js/wasm module also imports ${foreign.join(', ')}`, exports, importModules);
    return { abi: 'gojs', namespace: goNamespace };
  }

  if (exported.get('_start') === 'function') {
    let importedMemory: ImportedMemory | undefined;
    for (const i of imports) {
      if (i.kind === 'memory' && !importedMemory) {
        importedMemory = { module: i.module, name: i.name };
        continue;
      }
      if (i.module !== WASI_NAMESPACE || i.kind !== 'function') {
        throw abiError(
          `WASI module imports ${i.module}.${i.name} (${i.kind}), which is not granted`,
          exports,
          importModules,
        );
      }
    }
    if (!importedMemory && exported.get('memory') !== 'memory') {
      throw abiError('WASI module exports no memory', exports, importModules);
    }
    return importedMemory ? { abi: 'wasi', importedMemory } : { abi: 'wasi' };
  }

  if (exported.get('_initialize') === 'function') {
    throw abiError(
      'WASI reactor modules (_initialize) are not supported; build a command module with _start',
      exports,
      importModules,
    );
  }
  throw abiError(
    'not a WASI command module (_start, memory) nor a Go js/wasm module (run, resume, getsp, mem)',
    exports,
    importModules,
  );
}

function abiError(
  reason: string,
  exports: WebAssembly.ModuleExportDescriptor[],
  importModules: string[],
): WasmHostError {
  const ex = exports.map((e) => e.name).join(', ') || 'none';
  const im = importModules.join(', ') || 'none';
  return new WasmHostError('abi', `${reason} (exports: ${ex}; import modules: ${im})`);
}
