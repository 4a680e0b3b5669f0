/**
 * The library modules the harness `load()` table offers besides `assert.star` (docs/starlark.md, "Test files"):
 * `json.star` → `json`, `math.star` → `math`, `time.star` → `time` (without a clock: `time.now()` fails,
 * so runs are deterministic). `proto.star` is Go-only.
 */
import type { Value } from '../value/contract.ts';
import { JSON_MODULE } from '../lib/json.ts';
import { MATH_MODULE } from '../lib/math.ts';
import { createTimeModule } from '../lib/time.ts';

export const HARNESS_MODULES: Readonly<Record<string, Readonly<Record<string, Value>>>> = Object.freeze({
  'json.star': Object.freeze({ json: JSON_MODULE }),
  'math.star': Object.freeze({ math: MATH_MODULE }),
  'time.star': Object.freeze({ time: createTimeModule() }),
});
