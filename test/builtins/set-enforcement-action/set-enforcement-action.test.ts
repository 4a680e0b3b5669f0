import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/set-enforcement-action:v0.1';
const cm = (data: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n${data}`;
const ITEMS = `apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sRequiredLabels
metadata:
  name: must-have-owner
spec:
  enforcementAction: deny # was deny
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sAllowedRepos
metadata:
  name: repos
---
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8srequiredlabels
`;

describe('set-enforcement-action', () => {
  it('sets every constraint, creating spec, and lists them', async () => {
    const r = await runBuiltin(IMG, ITEMS, cm('  enforcementAction: dryrun\n'));
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('  enforcementAction: dryrun # was deny\n');
    expect(r.output).toContain('  name: repos\nspec:\n  enforcementAction: dryrun\n');
    expect(r.output).not.toContain('name: k8srequiredlabels\nspec');
    expect(r.results.map((x) => x.message)).toEqual([
      'Number of policies set to [dryrun]: 2',
      'Policy name: [must-have-owner]',
      'Policy name: [repos]',
    ]);
  });
  it('config errors and no policies', async () => {
    expect((await runBuiltin(IMG, ITEMS, cm('  enforcementAction: block\n'))).results[0].message).toBe(
      'failed to process policies: expected values for enforcementAction are [deny] or [warn] or [dryrun]',
    );
    const two = await runBuiltin(IMG, ITEMS, cm('  enforcementAction: warn\n  other: x\n'));
    expect(two.exitCode).toBe(1);
    expect(two.results[0].message).toBe(
      'failed to process policies: expecting exactly 1 enforcementAction as part of the ConfigMap',
    );
    const none = await runBuiltin(
      IMG,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
      cm('  enforcementAction: warn\n'),
    );
    expect(none.results).toEqual([{ message: 'Found no policy to set to [warn]', severity: 'warning' }]);
  });
});
