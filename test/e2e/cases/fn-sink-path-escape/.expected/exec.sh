# fn sink refuses, before writing anything, an item whose path is absolute or whose cleaned path
# starts with `..` (a bare prefix test: `..x/prefix.yaml` too); the new directory stays, empty.
# Each input also holds an item inside the package (`a/../ok.yaml`), which is not written either.
for f in parent cleaned dotdot prefix absolute deep; do
  kpt fn sink "out-$f" < "inputs/$f.txt"; echo "exit $?"
  find "out-$f" | sort
done
find .. -name 'escape.yaml' -o -name 'up*.yaml' -o -name 'prefix.yaml'
