/**
 * Deep freezing (spec §10.3). Idempotent and iterative (an explicit work list, so deeply nested
 * data cannot overflow the JS stack); cycles stop at containers that are already frozen.
 * Built-in containers expose their children through `freezeChildren`; other `Freezable` objects
 * (functions, host values) get their own `freeze()` called.
 */
import type { Value } from './contract.ts';
import { isFreezable } from './capabilities.ts';

/** Implemented by built-in containers: mark self frozen and return the values to freeze next,
 * or null when already frozen. */
export interface FreezeChildren {
  freezeChildren(): readonly Value[] | null;
}

const hasChildren = (x: object): x is FreezeChildren =>
  typeof (x as { freezeChildren?: unknown }).freezeChildren === 'function';

export function freeze(x: Value): void {
  if (typeof x !== 'object') return;
  const work: Value[] = [x];
  while (work.length > 0) {
    const v = work.pop()!;
    if (typeof v !== 'object') continue;
    if (hasChildren(v)) {
      const kids = v.freezeChildren();
      if (kids !== null) for (let i = 0; i < kids.length; i++) if (typeof kids[i] === 'object') work.push(kids[i]);
    } else if (isFreezable(v)) v.freeze();
  }
}
