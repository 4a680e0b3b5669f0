/** Deep freezing (spec §10.3). Idempotent; cycles are safe because containers mark themselves first. */
import type { Value } from './contract.ts';
import { isFreezable } from './capabilities.ts';

export function freeze(x: Value): void {
  if (typeof x === 'object' && isFreezable(x)) x.freeze();
}
