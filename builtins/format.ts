/**
 * format (builtins/docs/format.md): kyaml's FormatFilter. Orders mapping fields the way Kubernetes
 * resources are conventionally written (a fixed list of well-known field names first, in that
 * order; any other field after them, lexicographically) and quotes strings a YAML 1.1 reader
 * would misread (`yes`, `on`, `0755`, …). Comments travel with their fields; indentation is the
 * emitter's.
 */
import { defineBuiltin, defineMutator, type KubeObject, type YNode } from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { ok, type Report } from './lib/report.ts';
import { needsQuotes } from './lib/quoting.ts';

/** Well-known field names in output order (metadata, container, pod spec, top level). */
export const FIELD_ORDER: readonly string[] = Object.freeze([
  // object metadata
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'clusterName',
  // containers
  'image',
  'imagePullPolicy',
  'command',
  'args',
  'workingDir',
  'ports',
  'envFrom',
  'env',
  'resources',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
  // pod spec
  'initContainers',
  'containers',
  'volumes',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'dnsPolicy',
  'nodeSelector',
  'serviceAccountName',
  'serviceAccount',
  'automountServiceAccountToken',
  'nodeName',
  'hostNetwork',
  'hostPID',
  'hostIPC',
  'shareProcessNamespace',
  'imagePullSecrets',
  'hostname',
  'subdomain',
  'affinity',
  'schedulerName',
  'tolerations',
  'hostAliases',
  'priorityClassName',
  'priority',
  'dnsConfig',
  'readinessGates',
  'runtimeClassName',
  'enableServiceLinks',
  // workload and service specs
  'replicas',
  'selector',
  'template',
  'strategy',
  'minReadySeconds',
  'revisionHistoryLimit',
  'paused',
  'progressDeadlineSeconds',
  'serviceName',
  'volumeClaimTemplates',
  'podManagementPolicy',
  'updateStrategy',
  'clusterIP',
  'externalIPs',
  'sessionAffinity',
  'loadBalancerIP',
  'loadBalancerSourceRanges',
  'externalName',
  'externalTrafficPolicy',
  'healthCheckNodePort',
  'publishNotReadyAddresses',
  'protocol',
  'port',
  'targetPort',
  'nodePort',
  'containerPort',
  'hostPort',
  'hostIP',
  // top level
  'apiVersion',
  'kind',
  'metadata',
  'type',
  'spec',
  'data',
  'binaryData',
  'stringData',
  'rules',
  'subjects',
  'roleRef',
  'status',
]);

const rank = new Map(FIELD_ORDER.map((k, i) => [k, i]));

function sortMapping(n: YNode): void {
  const pairs: [YNode, YNode][] = [];
  for (let i = 0; i + 1 < n.content.length; i += 2) pairs.push([n.content[i], n.content[i + 1]]);
  const order = (k: YNode): [number, string] => [rank.get(k.value) ?? FIELD_ORDER.length, k.value];
  pairs.sort((a, b) => {
    const [ra, ka] = order(a[0]);
    const [rb, kb] = order(b[0]);
    return ra - rb || (ka < kb ? -1 : ka > kb ? 1 : 0);
  });
  n.content = pairs.flat();
}

export function formatNode(n: YNode, isKey = false): void {
  if (n.kind === 'document') n.content.forEach((c) => formatNode(c));
  else if (n.kind === 'mapping') {
    sortMapping(n);
    n.content.forEach((c, i) => formatNode(c, i % 2 === 0));
  } else if (n.kind === 'sequence') n.content.forEach((c) => formatNode(c));
  else if (
    n.kind === 'scalar' &&
    !isKey &&
    n.tag === '!!str' &&
    n.style === '' &&
    !n.value.includes('\n') &&
    needsQuotes(n.value, true)
  ) {
    n.style = 'double';
  }
}

export function formatItems(items: readonly KubeObject[]): Report {
  for (const o of items) o.editTree(formatNode);
  return ok();
}

export const formatFn = defineMutator({
  name: 'format',
  usage: 'Formats resources: conventional field order and quoting of ambiguous strings.',
  run(ctx) {
    finish(ctx, formatItems(ctx.items.all));
  },
});

export default defineBuiltin({
  name: 'format',
  versions: ['v0.1.0'],
  configKinds: [],
  summary: 'Format resources: conventional field order, quoting of ambiguous strings',
  fn: formatFn,
});
