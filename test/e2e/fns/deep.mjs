#!/usr/bin/env node
// A hostile function: prints a ResourceList with a 10,000-deep nested flow sequence.
process.stdin.resume();
process.stdin.on('end', () => {
  process.stdout.write(
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: deep\n  data: ${'['.repeat(10000)}${']'.repeat(10000)}\n`,
  );
});
