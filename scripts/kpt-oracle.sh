#!/usr/bin/env bash
# Conformance check against the real kpt (docs/kpt-semantics.md, "Testing against kpt"), for machines that have kpt:
# renders each golden package with `kpt fn render` and with `krmfn render` and compares the
# written trees and the exit status. kpt runs image functions through a docker stand-in that
# calls `krmfn run IMAGE` (so this checks kpt's file handling, ordering and errors against
# krmfn's engine; catalog behaviour itself is covered by the golden cases), and exec functions
# for real. Usage: scripts/kpt-oracle.sh [case-dir...]   (default: every render case)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
command -v kpt >/dev/null || { echo "kpt not found on PATH"; exit 2; }
work=$(mktemp -d)
mkdir -p "$work/bin"
cat > "$work/bin/docker" <<SH
#!/usr/bin/env bash
if [ "\$1" = "version" ]; then echo "24.0.7"; exit 0; fi
exec node "$here/bin/krmfn.mjs" run "\${!#}"
SH
chmod +x "$work/bin/docker"

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$here"/test/e2e/cases/*/; do
    cfg="$d.expected/config.yaml"
    grep -qE '^command: *(eval|fn eval)' "$cfg" 2>/dev/null && continue
    cases+=("${d%/}")
  done
  for d in "$here"/test/builtins/*/*/; do
    [ -f "$d/Kptfile" ] && [ -d "$d/.expected" ] && ! grep -qE '^(testType|command): *(eval|fn eval)' "$d/.expected/config.yaml" 2>/dev/null && cases+=("${d%/}")
  done
fi

same=0; differ=0
for c in "${cases[@]}"; do
  src="$c"; [ -d "$c/pkg" ] && src="$c/pkg"
  args=$(sed -n 's/^args: *\[\(.*\)\]/\1/p' "$c/.expected/config.yaml" 2>/dev/null | tr -d '",' )
  rm -rf "$work/kpt" "$work/krmfn"
  cp -r "$src" "$work/kpt"; cp -r "$src" "$work/krmfn"
  (cd "$work/kpt" && PATH="$work/bin:$PATH" timeout 60 kpt fn render . $args >"$work/kpt.log" 2>&1); k=$?
  (cd "$work/krmfn" && timeout 60 node "$here/bin/krmfn.mjs" render . $args >"$work/krmfn.log" 2>&1); m=$?
  name=${c#"$here"/}
  if [ $((k != 0)) -eq $((m != 0)) ] && diff -r -x .expected "$work/kpt" "$work/krmfn" >"$work/diff" 2>&1; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "DIFFER $name (kpt exit $k, krmfn exit $m)"
    head -20 "$work/diff" | sed 's/^/    /'
  fi
done
echo "kpt oracle: $same same, $differ differ"
rm -rf "$work"
