/**
 * Name back-references (a subset of kustomize's built-in `namereference` FieldSpecs): where one
 * object names another. When a referenced object is renamed, each referring field holding the old
 * name is rewritten. Paths use FieldSpec syntax (sequences traversed element-wise).
 */
export interface NameReference {
  /** Kind (and optionally group) of the referenced object. */
  kind: string;
  group?: string;
  /** The referring fields. `kind` '' means any kind. */
  referrers: readonly { kind?: string; group?: string; path: string; refKindField?: string }[];
}

const WORKLOADS = [
  'Pod',
  'Deployment',
  'ReplicaSet',
  'DaemonSet',
  'StatefulSet',
  'Job',
  'CronJob',
  'ReplicationController',
  'PodTemplate',
];

function inPodSpecs(...rel: string[]): { kind: string; path: string }[] {
  const out: { kind: string; path: string }[] = [];
  for (const kind of WORKLOADS) {
    const base =
      kind === 'Pod'
        ? 'spec'
        : kind === 'CronJob'
          ? 'spec/jobTemplate/spec/template/spec'
          : kind === 'PodTemplate'
            ? 'template/spec'
            : 'spec/template/spec';
    for (const r of rel) out.push({ kind, path: `${base}/${r}` });
  }
  return out;
}

export const NAME_REFERENCES: readonly NameReference[] = Object.freeze([
  {
    kind: 'ConfigMap',
    referrers: [
      ...inPodSpecs(
        'volumes/configMap/name',
        'volumes/projected/sources/configMap/name',
        'containers/env/valueFrom/configMapKeyRef/name',
        'initContainers/env/valueFrom/configMapKeyRef/name',
        'containers/envFrom/configMapRef/name',
        'initContainers/envFrom/configMapRef/name',
      ),
    ],
  },
  {
    kind: 'Secret',
    referrers: [
      ...inPodSpecs(
        'volumes/secret/secretName',
        'volumes/projected/sources/secret/name',
        'containers/env/valueFrom/secretKeyRef/name',
        'initContainers/env/valueFrom/secretKeyRef/name',
        'containers/envFrom/secretRef/name',
        'initContainers/envFrom/secretRef/name',
        'imagePullSecrets/name',
      ),
      { kind: 'ServiceAccount', path: 'imagePullSecrets/name' },
      { kind: 'ServiceAccount', path: 'secrets/name' },
      { kind: 'Ingress', path: 'spec/tls/secretName' },
    ],
  },
  {
    kind: 'ServiceAccount',
    referrers: [
      ...inPodSpecs('serviceAccountName', 'serviceAccount'),
      { kind: 'RoleBinding', path: 'subjects/name', refKindField: 'kind' },
      { kind: 'ClusterRoleBinding', path: 'subjects/name', refKindField: 'kind' },
    ],
  },
  {
    kind: 'Role',
    referrers: [{ kind: 'RoleBinding', path: 'roleRef/name', refKindField: 'kind' }],
  },
  {
    kind: 'ClusterRole',
    referrers: [
      { kind: 'RoleBinding', path: 'roleRef/name', refKindField: 'kind' },
      { kind: 'ClusterRoleBinding', path: 'roleRef/name', refKindField: 'kind' },
    ],
  },
  {
    kind: 'Service',
    referrers: [
      { kind: 'Ingress', path: 'spec/rules/http/paths/backend/serviceName' },
      { kind: 'Ingress', path: 'spec/rules/http/paths/backend/service/name' },
      { kind: 'Ingress', path: 'spec/backend/serviceName' },
      { kind: 'Ingress', path: 'spec/defaultBackend/service/name' },
      { kind: 'StatefulSet', path: 'spec/serviceName' },
      { kind: 'APIService', path: 'spec/service/name' },
    ],
  },
  {
    kind: 'PersistentVolumeClaim',
    referrers: [...inPodSpecs('volumes/persistentVolumeClaim/claimName')],
  },
  {
    kind: 'PersistentVolume',
    referrers: [{ kind: 'PersistentVolumeClaim', path: 'spec/volumeName' }],
  },
  {
    kind: 'StorageClass',
    referrers: [
      { kind: 'PersistentVolume', path: 'spec/storageClassName' },
      { kind: 'PersistentVolumeClaim', path: 'spec/storageClassName' },
      { kind: 'StatefulSet', path: 'spec/volumeClaimTemplates/spec/storageClassName' },
    ],
  },
  {
    kind: 'PriorityClass',
    referrers: [...inPodSpecs('priorityClassName')],
  },
  ...['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'].map((kind) => ({
    kind,
    referrers: [{ kind: 'HorizontalPodAutoscaler', path: 'spec/scaleTargetRef/name', refKindField: 'kind' }],
  })),
]);
