// ResourceLists the server benchmarks send (bench/serve.bench.mjs, bench/grpc.bench.mjs): a small
// package through a built-in (set-namespace config) and through a Starlark function.
export const LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web # comment
  spec:
    replicas: 1
    template:
      spec:
        containers:
        - name: web
          image: nginx:1.27
- apiVersion: v1
  kind: Service
  metadata:
    name: web
  spec:
    ports:
    - port: 80
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data:
    namespace: prod
`;

export const STARLARK = `${LIST.replace(/functionConfig:[\s\S]*$/, '')}functionConfig:
  apiVersion: fn.kpt.dev/v1alpha1
  kind: StarlarkRun
  metadata:
    name: bump
  source: |
    for r in ctx.resource_list["items"]:
      r["metadata"].setdefault("labels", {})["bench"] = "yes"
`;
