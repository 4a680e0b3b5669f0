/**
 * Scope of known Kubernetes kinds, keyed on the exact `apiVersion` + `kind` (as kyaml's built-in
 * OpenAPI data is; docs/catalog.md, "SDK helpers whose semantics leak into behaviour"). A kind missing from both tables is *unknown*: callers decide
 * (kyaml's `IsNamespaceScoped` treats an unknown kind as namespaced iff it has `metadata.namespace`;
 * kustomize's namespace filter treats every unknown kind as namespaceable).
 */

const CLUSTER_SCOPED: Record<string, readonly string[]> = {
  v1: ['ComponentStatus', 'Namespace', 'Node', 'PersistentVolume'],
  'admissionregistration.k8s.io/v1': ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
  'admissionregistration.k8s.io/v1beta1': ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
  'apiextensions.k8s.io/v1': ['CustomResourceDefinition'],
  'apiextensions.k8s.io/v1beta1': ['CustomResourceDefinition'],
  'apiregistration.k8s.io/v1': ['APIService'],
  'apiregistration.k8s.io/v1beta1': ['APIService'],
  'authentication.k8s.io/v1': ['TokenReview'],
  'authentication.k8s.io/v1beta1': ['TokenReview'],
  'authorization.k8s.io/v1': ['SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SubjectAccessReview'],
  'authorization.k8s.io/v1beta1': ['SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SubjectAccessReview'],
  'certificates.k8s.io/v1': ['CertificateSigningRequest'],
  'certificates.k8s.io/v1beta1': ['CertificateSigningRequest'],
  'flowcontrol.apiserver.k8s.io/v1alpha1': ['FlowSchema', 'PriorityLevelConfiguration'],
  'flowcontrol.apiserver.k8s.io/v1beta1': ['FlowSchema', 'PriorityLevelConfiguration'],
  'networking.k8s.io/v1': ['IngressClass'],
  'networking.k8s.io/v1beta1': ['IngressClass'],
  'node.k8s.io/v1': ['RuntimeClass'],
  'node.k8s.io/v1alpha1': ['RuntimeClass'],
  'node.k8s.io/v1beta1': ['RuntimeClass'],
  'policy/v1beta1': ['PodSecurityPolicy'],
  'rbac.authorization.k8s.io/v1': ['ClusterRole', 'ClusterRoleBinding'],
  'rbac.authorization.k8s.io/v1alpha1': ['ClusterRole', 'ClusterRoleBinding'],
  'rbac.authorization.k8s.io/v1beta1': ['ClusterRole', 'ClusterRoleBinding'],
  'scheduling.k8s.io/v1': ['PriorityClass'],
  'scheduling.k8s.io/v1alpha1': ['PriorityClass'],
  'scheduling.k8s.io/v1beta1': ['PriorityClass'],
  'storage.k8s.io/v1': ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
  'storage.k8s.io/v1alpha1': ['VolumeAttachment'],
  'storage.k8s.io/v1beta1': ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
};

const NAMESPACED: Record<string, readonly string[]> = {
  v1: [
    'Binding',
    'ConfigMap',
    'Endpoints',
    'Event',
    'LimitRange',
    'PersistentVolumeClaim',
    'Pod',
    'PodTemplate',
    'ReplicationController',
    'ResourceQuota',
    'Secret',
    'Service',
    'ServiceAccount',
  ],
  'apps/v1': ['ControllerRevision', 'DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'],
  'apps/v1beta1': ['ControllerRevision', 'Deployment', 'StatefulSet'],
  'apps/v1beta2': ['ControllerRevision', 'DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'],
  'autoscaling/v1': ['HorizontalPodAutoscaler'],
  'autoscaling/v2beta1': ['HorizontalPodAutoscaler'],
  'autoscaling/v2beta2': ['HorizontalPodAutoscaler'],
  'batch/v1': ['Job'],
  'batch/v1beta1': ['CronJob'],
  'batch/v2alpha1': ['CronJob'],
  'coordination.k8s.io/v1': ['Lease'],
  'coordination.k8s.io/v1beta1': ['Lease'],
  'discovery.k8s.io/v1beta1': ['EndpointSlice'],
  'events.k8s.io/v1': ['Event'],
  'events.k8s.io/v1beta1': ['Event'],
  'extensions/v1beta1': ['DaemonSet', 'Deployment', 'Ingress', 'NetworkPolicy', 'ReplicaSet'],
  'networking.k8s.io/v1': ['Ingress', 'NetworkPolicy'],
  'networking.k8s.io/v1beta1': ['Ingress'],
  'policy/v1beta1': ['PodDisruptionBudget'],
  'rbac.authorization.k8s.io/v1': ['Role', 'RoleBinding'],
  'rbac.authorization.k8s.io/v1alpha1': ['Role', 'RoleBinding'],
  'rbac.authorization.k8s.io/v1beta1': ['Role', 'RoleBinding'],
  'storage.k8s.io/v1alpha1': ['CSIStorageCapacity'],
  'storage.k8s.io/v1beta1': ['CSIStorageCapacity'],
};

const toSet = (t: Record<string, readonly string[]>): ReadonlySet<string> =>
  new Set(Object.entries(t).flatMap(([av, kinds]) => kinds.map((k) => `${av} ${k}`)));
const CLUSTER = toSet(CLUSTER_SCOPED);
const NS = toSet(NAMESPACED);

export type KnownScope = 'cluster' | 'namespaced' | 'unknown';

/** Scope of (apiVersion, kind) from the built-in tables; 'unknown' for anything else (CRs, Kptfile). */
export function knownScope(apiVersion: string, kind: string): KnownScope {
  const key = `${apiVersion} ${kind}`;
  if (CLUSTER.has(key)) return 'cluster';
  if (NS.has(key)) return 'namespaced';
  return 'unknown';
}
