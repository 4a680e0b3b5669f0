/**
 * kpt selectors in the SDK (`fromKptSelector`) match exactly as the engine selects Kptfile
 * `selectors`/`exclude` (src/core/selector.ts, the one matcher both use): every given field must
 * equal, label and annotation pairs must all be present, empty fields and maps constrain nothing.
 */
import { describe, expect, it } from 'vitest';
import { fromKptSelector, newObject } from 'krmfn/sdk';
import type { Selector } from 'krmfn';
import { select } from '../../src/engine/selectors.ts';

const objects = [
  newObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'x', labels: { app: 'web' } } }),
  newObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a', labels: { app: 'web', t: '1' } } }),
  newObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', annotations: { note: 'n' } } }),
];

const cases: [string, Selector, string[]][] = [
  ['kind only', { kind: 'ConfigMap' }, ['ConfigMap/a', 'ConfigMap/b']],
  ['apiVersion and name', { apiVersion: 'apps/v1', name: 'a' }, ['Deployment/a']],
  ['namespace', { namespace: 'x' }, ['ConfigMap/a']],
  ['every label pair', { labels: { app: 'web', t: '1' } }, ['Deployment/a']],
  ['an absent label', { labels: { app: 'db' } }, []],
  ['annotation', { annotations: { note: 'n' } }, ['ConfigMap/b']],
  ['empty maps constrain nothing', { kind: 'ConfigMap', labels: {}, annotations: {} }, ['ConfigMap/a', 'ConfigMap/b']],
  ['empty strings constrain nothing', { kind: '', name: 'b' }, ['ConfigMap/b']],
];

const ids = (list: readonly { kind: string; name: string }[]): string[] => list.map((o) => `${o.kind}/${o.name}`);

describe('fromKptSelector and the engine agree', () => {
  for (const [name, sel, want] of cases) {
    it(name, () => {
      expect(ids(objects.filter(fromKptSelector(sel)))).toEqual(want);
      expect(ids(select(objects, [sel]))).toEqual(want);
    });
  }
});
