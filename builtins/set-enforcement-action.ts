/**
 * set-enforcement-action (builtins/docs/set-enforcement-action.md): sets `spec.enforcementAction` of every Gatekeeper
 * constraint (`constraints.gatekeeper.sh/v1beta1` with a kind and a name).
 */
import { defineBuiltin, defineMutator, type KubeObject, type Result } from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { dataMap } from './lib/config.ts';
import { fail, ok, type Report } from './lib/report.ts';

const ACTIONS = ['deny', 'warn', 'dryrun'];

export function parseEnforcementAction(fc: KubeObject | undefined): string | { error: string } {
  const data = dataMap(fc);
  const v = data.get('enforcementAction');
  if (data.size !== 1 || v === undefined)
    return { error: 'failed to process policies: expecting exactly 1 enforcementAction as part of the ConfigMap' };
  if (!ACTIONS.includes(v))
    return {
      error: 'failed to process policies: expected values for enforcementAction are [deny] or [warn] or [dryrun]',
    };
  return v;
}

export function setEnforcementAction(items: readonly KubeObject[], action: string): Report {
  const names: string[] = [];
  for (const o of items) {
    if (o.apiVersion !== 'constraints.gatekeeper.sh/v1beta1' || !o.kind || !o.name) continue;
    o.set(['spec', 'enforcementAction'], action);
    names.push(o.name);
  }
  if (names.length === 0) return ok([{ message: `Found no policy to set to [${action}]`, severity: 'warning' }]);
  const results: Result[] = [{ message: `Number of policies set to [${action}]: ${names.length}`, severity: 'info' }];
  for (const n of names) results.push({ message: `Policy name: [${n}]`, severity: 'info' });
  return ok(results);
}

export const setEnforcementActionFn = defineMutator({
  name: 'set-enforcement-action',
  usage: 'Sets `spec.enforcementAction` (deny, warn or dryrun) on every Gatekeeper constraint.',
  run(ctx) {
    const action = parseEnforcementAction(ctx.functionConfig);
    finish(ctx, typeof action === 'string' ? setEnforcementAction(ctx.items.all, action) : fail(action.error));
  },
});

export default defineBuiltin({
  name: 'set-enforcement-action',
  versions: ['v0.1.0'],
  configKinds: ['ConfigMap'],
  summary: 'Set spec.enforcementAction on Gatekeeper constraints',
  schema: {
    type: 'object',
    properties: {
      data: { type: 'object', required: ['enforcementAction'], properties: { enforcementAction: { enum: ACTIONS } } },
    },
  },
  fn: setEnforcementActionFn,
});
