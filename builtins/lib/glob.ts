/**
 * doublestar-style file-path globs for the catalog (search-replace `by-file-path`): one glob
 * implementation for the engine and the built-ins lives in src/core/glob.ts (linear time, no
 * backtracking); built-ins reach it through the SDK.
 */
import { compileDoublestar } from '../../sdk/index.ts';

export function globMatch(glob: string, path: string): boolean {
  return compileDoublestar(glob).match(path);
}
