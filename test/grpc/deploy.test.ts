/**
 * The function-runner kpt package (deploy/function-runner): rendered with krmfn itself (its
 * pipeline sets the namespace and validates with the kubeconform built-in), checked for what a
 * Porch function runner deployment needs, and its container arguments started for real.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { krmfn, serveProcess, TestClient } from './helpers.ts';

const PKG = join(import.meta.dirname, '..', '..', 'deploy', 'function-runner');
const work = mkdtempSync(join(tmpdir(), 'krmfn-deploy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function copy(name: string): string {
  const dir = join(work, name);
  cpSync(PKG, dir, { recursive: true });
  return dir;
}

function resources(dir: string): Obj[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => YAML.parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as Obj));
}

describe('deploy/function-runner', () => {
  it('renders with krmfn and passes the kubeconform built-in', async () => {
    const dir = copy('ok');
    const r = await krmfn(['render', dir]);
    expect(r.stderr).toContain('[PASS] "ghcr.io/kptdev/krm-functions-catalog/kubeconform:v0.1"');
    expect(r.code).toBe(0);
    const all = resources(dir);
    const byKind = Object.fromEntries(all.map((o) => [o.kind as string, o]));
    expect(Object.keys(byKind).sort()).toEqual([
      'Deployment',
      'HorizontalPodAutoscaler',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
    ]);
    for (const o of all) expect(o.metadata.namespace).toBe('porch-system');

    const deploy = byKind.Deployment;
    const labels = deploy.spec.template.metadata.labels;
    const pod = deploy.spec.template.spec;
    const c = pod.containers[0];
    expect(c.args.slice(0, 3)).toEqual(['--grpc', ':9445', '--grpc-only']);
    expect(c.ports).toEqual([{ name: 'grpc', containerPort: 9445 }]);
    expect(c.readinessProbe.grpc.port).toBe(9445);
    expect(c.livenessProbe.grpc.port).toBe(9445);
    expect(c.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });

    expect(byKind.Service.spec.selector).toEqual(labels);
    expect(byKind.Service.spec.ports[0]).toMatchObject({ port: 9445, targetPort: 'grpc' });
    const hpa = byKind.HorizontalPodAutoscaler;
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deploy.metadata.name });
    expect(hpa.spec.metrics[0].resource.name).toBe('cpu');
    expect(byKind.PodDisruptionBudget.spec.selector.matchLabels).toEqual(labels);
    const np = byKind.NetworkPolicy;
    expect(np.spec.podSelector.matchLabels).toEqual(labels);
    expect(np.spec.ingress[0].ports).toEqual([{ protocol: 'TCP', port: 9445 }]);
  });

  it("moves every resource to the Kptfile's namespace", async () => {
    const dir = copy('elsewhere');
    const kptfile = join(dir, 'Kptfile');
    writeFileSync(kptfile, readFileSync(kptfile, 'utf8').replace('namespace: porch-system', 'namespace: fn-runners'));
    const r = await krmfn(['render', dir]);
    expect(r.code).toBe(0);
    const namespaces = resources(dir).map((o) => o.metadata.namespace);
    expect(namespaces).toEqual(Array(5).fill('fn-runners'));
  });

  it('fails the render when a manifest does not validate', async () => {
    const dir = copy('bad');
    const file = join(dir, 'deployment.yaml');
    const broken = readFileSync(file, 'utf8').replace('containerPort: 9445', 'containerPort: "nine-four"');
    writeFileSync(file, broken);
    const r = await krmfn(['render', dir]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('containerPort');
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it("starts `krmfn serve` with the Deployment's arguments", async () => {
    const deploy = resources(PKG).find((o) => o.kind === 'Deployment')!;
    const args = (deploy.spec.template.spec.containers[0].args as string[]).map((a) =>
      a === ':9445' ? '127.0.0.1:0' : a,
    );
    const server = await serveProcess(args);
    const client = new TestClient(server.target);
    try {
      expect(await client.check()).toMatchObject({ code: 0, status: 'SERVING' });
    } finally {
      client.close();
      expect(await server.stop()).toBe(0);
    }
  });
});
