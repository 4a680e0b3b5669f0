import { describe, expect, it } from 'vitest';
import { FieldTypeError, KubeObject, ProtectedFieldError, ReadOnlyError } from 'krmfn/sdk';

const deploy = (): KubeObject =>
  KubeObject.fromJS({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'prod',
      labels: { app: 'web' },
      annotations: {
        'internal.config.kubernetes.io/path': 'app/deploy.yaml',
        'internal.config.kubernetes.io/index': '2',
        'internal.config.kubernetes.io/id': '3',
      },
    },
    spec: { replicas: 3, paused: false, template: { spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
  });

describe('KubeObject typed getters', () => {
  it('returns values, undefined when missing, FieldTypeError on wrong types', () => {
    const o = deploy();
    expect(o.getNumber('spec.replicas')).toBe(3);
    expect(o.getBool('spec.paused')).toBe(false);
    expect(o.getString('spec.template.spec.containers[0].image')).toBe('nginx');
    expect(o.getString('spec.template.spec.containers.0.name')).toBe('app');
    expect(o.getList('spec.template.spec.containers')).toEqual([{ name: 'app', image: 'nginx' }]);
    expect(o.getMap('metadata.labels')).toEqual({ app: 'web' });
    expect(o.getNumber('spec.missing')).toBeUndefined();
    expect(() => o.getNumber('metadata.name')).toThrow(FieldTypeError);
    expect(() => o.getString('spec.template')).toThrow(/spec\.template: expected string, found map/);
    expect(() => o.getMap('spec.replicas')).toThrow(FieldTypeError);
    expect(() => o.getBool('spec.replicas')).toThrow(/expected boolean, found number 3/);
    expect(o.get('spec.nothing', 'fallback')).toBe('fallback');
  });

  it('exposes identity, scope and source', () => {
    const o = deploy();
    expect(o.gvk).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(o.id).toBe('apps/v1/Deployment/prod/web');
    expect(o.isNamespaceScoped).toBe(true);
    expect(o.source).toEqual({ path: 'app/deploy.yaml', index: 2, line: 0 });
    expect(o.isGVK('', 'v1', 'Deployment')).toBe(true);
    expect(o.isKind('Deployment', 'apps/v1beta1')).toBe(false);
    const ns = KubeObject.fromJS({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } });
    expect(ns.isClusterScoped).toBe(true);
    const cr = KubeObject.fromJS({ apiVersion: 'ex.com/v1', kind: 'Thing', metadata: { name: 'x' } });
    expect(cr.isNamespaceScoped).toBe(false);
    cr.set('metadata.namespace', 'a');
    expect(cr.isNamespaceScoped).toBe(true);
  });

  it('treats local-config like kyaml', () => {
    const o = deploy();
    expect(o.isLocalConfig).toBe(false);
    o.setAnnotation('config.kubernetes.io/local-config', 'false');
    expect(o.isLocalConfig).toBe(false);
    o.setAnnotation('config.kubernetes.io/local-config', 'yes');
    expect(o.isLocalConfig).toBe(true);
  });
});

describe('KubeObject writes', () => {
  it('drops an emptied labels map', () => {
    const o = deploy();
    expect(o.removeLabel('app')).toBe(true);
    expect(o.has('metadata.labels')).toBe(false);
  });

  it('setSource writes the forms the object uses', () => {
    const o = deploy();
    o.setSource({ path: 'x.yaml', index: 1 });
    expect(o.annotations()['internal.config.kubernetes.io/path']).toBe('x.yaml');
    expect(o.annotations()['config.kubernetes.io/path']).toBeUndefined();
    const fresh = KubeObject.fromJS({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    fresh.setSource({ path: 'c.yaml' });
    expect(fresh.annotations()).toEqual({
      'config.kubernetes.io/path': 'c.yaml',
      'config.kubernetes.io/index': '0',
      'internal.config.kubernetes.io/path': 'c.yaml',
      'internal.config.kubernetes.io/index': '0',
    });
  });

  it('guards orchestrator annotations and read-only objects', () => {
    const o = deploy();
    o.access = 'guarded';
    expect(() => o.setAnnotation('internal.config.kubernetes.io/id', '9')).toThrow(ProtectedFieldError);
    expect(() => o.removeAnnotation('internal.config.kubernetes.io/id')).toThrow(ProtectedFieldError);
    expect(() => o.delete('metadata.annotations')).toThrow(ProtectedFieldError);
    expect(() => o.set('metadata', { name: 'web' })).toThrow(ProtectedFieldError);
    o.setAnnotation('team', 'a'); // other annotations are fine
    o.setAnnotation('internal.config.kubernetes.io/path', 'moved.yaml'); // path is not protected
    o.access = 'read-only';
    expect(() => o.set('spec.replicas', 4)).toThrow(ReadOnlyError);
    expect(() => o.setComment('spec', { head: 'x' })).toThrow(ReadOnlyError);
    o.access = 'full';
    o.setAnnotation('internal.config.kubernetes.io/id', '9');
    expect(o.getAnnotation('internal.config.kubernetes.io/id')).toBe('9');
  });

  it('guards in-place node edits (editTree) like every other write', () => {
    const o = deploy();
    o.access = 'guarded';
    o.editTree((root) => (root.content[0].lineComment = '# fine'));
    expect(o.root.content[0].lineComment).toBe('# fine');
    const annotations = o.getNode('metadata.annotations')!;
    expect(() => o.editTree(() => (annotations.content = []))).toThrow(ProtectedFieldError);
    o.access = 'read-only';
    expect(() => o.editTree(() => undefined)).toThrow(ReadOnlyError);
  });

  it('edit() merges only the changes into the node tree', () => {
    const o = deploy();
    o.setComment('spec.replicas', { line: 'keep me' });
    o.setComment('spec.template', { head: 'template head' });
    const replicasNode = o.getNode('spec.replicas');
    o.edit<{
      spec: { replicas: number; template: { spec: { containers: { name: string; image: string }[] } } };
      metadata: Record<string, unknown>;
    }>((d) => {
      d.spec.replicas = 5;
      d.spec.template.spec.containers[0].image = 'nginx:2';
      d.spec.template.spec.containers.push({ name: 'side', image: 'busybox' });
      delete d.metadata['labels'];
    });
    expect(o.getNode('spec.replicas')).toBe(replicasNode);
    expect(o.comments('spec.replicas')).toEqual({ line: '# keep me' });
    expect(o.comments('spec.template').head).toBe('# template head');
    expect(o.get('spec.template.spec.containers')).toEqual([
      { name: 'app', image: 'nginx:2' },
      { name: 'side', image: 'busybox' },
    ]);
    expect(o.has('metadata.labels')).toBe(false);
    expect(o.as<{ spec: { replicas: number } }>().spec.replicas).toBe(5);
  });
});
