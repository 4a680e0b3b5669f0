#!/usr/bin/env node
// A hostile function: prints a ResourceList whose item is a billion-laughs alias bomb.
process.stdin.resume();
process.stdin.on('end', () => {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const n = String.fromCharCode(97 + i);
    const p = String.fromCharCode(96 + i);
    lines.push(
      `${n}: &${n} [${Array(9)
        .fill('*' + p)
        .join(',')}]`,
    );
  }
  process.stdout.write(
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: bomb\n  data:\n${lines.map((l) => '    ' + l).join('\n')}\n`,
  );
});
