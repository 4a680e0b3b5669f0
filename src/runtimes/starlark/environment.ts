/**
 * `ctx.environment` for the KRM `starlark` function. In kpt the function runs in a container that
 * sees only what `--env`/`-e` passes (kpt v1.0.0-beta.56 `internal/fnruntime/container.go`
 * `NewContainerEnvFromStringSlice`, then kyaml `runtimeutil.ContainerEnv.GetDockerFlags`):
 * `KEY=VAL` sets a value (the last one for a key wins), a bare `KEY` exports the host's value when
 * the host has it (docker's `-e KEY`) and is otherwise left out. Nothing else of the host leaks in.
 */
export function functionEnvironment(
  flags: readonly string[],
  host: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const exported: string[] = [];
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq < 0) {
      if (!exported.includes(flag)) exported.push(flag);
    } else {
      out[flag.slice(0, eq)] = flag.slice(eq + 1);
    }
  }
  for (const key of exported) {
    const v = host[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}
