#!/bin/sh
# A validator for golden tests: discards its input and reports results whose `field` values are
# of every YAML type (int, hex int, float, bool, quoted string, plain strings, map, flow map,
# sequence, null, empty string, a legacy `suggestedValue`), to show how kpt records them.
cat >/dev/null
cat <<'YAML'
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
results:
  - message: int
    severity: warning
    field:
      path: spec.replicas
      currentValue: 3
      proposedValue: 0x10
  - message: bool
    severity: info
    field:
      path: spec.paused
      currentValue: true
      proposedValue: "false"
  - message: string
    severity: info
    field:
      path: metadata.name
      currentValue: web
      proposedValue: 'a: b'
  - message: map
    severity: info
    field:
      path: metadata.labels
      currentValue:
        tier: web   # a comment
        app: shop
      proposedValue: {b: 1, a: [x, y]}
  - message: sequence and null
    severity: info
    field:
      path: spec.args
      currentValue:
        - one
        - two
      proposedValue: null
  - message: float and empty
    severity: info
    field:
      path: spec.ratio
      currentValue: 1.50
      proposedValue: ""
  - message: legacy suggestedValue
    severity: info
    resourceRef:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: cm
    field:
      path: data
      suggestedValue:
        k: v
YAML
