import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

describe('format', () => {
  it('orders fields conventionally, unknown ones alphabetically after, and quotes ambiguous strings', async () => {
    const r = await runBuiltin(
      'gcr.io/kpt-fn/format:v0.1',
      `spec:
  zeta: 1
  replicas: 2 # two
  alpha: yes-really
  template:
    spec:
      containers:
      - image: nginx
        name: app
        env: [{value: "on", name: X}]
metadata:
  labels: {a: b}
  name: web
kind: Deployment
apiVersion: apps/v1
`,
    );
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {a: b}
spec:
  replicas: 2 # two
  template:
    spec:
      containers:
      - name: app
        image: nginx
        env: [{name: X, value: "on"}]
  alpha: yes-really
  zeta: 1
`);
  });
});
