# Generates random files (gen.py) and records what kpt writes for each: pure/ (no function saw the
# file, or .err with the error) and fn/ (after one identity exec function). Then compare with:
#   npx esbuild test/yaml/fuzz/compare.ts --bundle --platform=node --format=esm --external:yaml --outfile=node_modules/.fuzz-compare.mjs && node node_modules/.fuzz-compare.mjs DIR
# usage: kpt-check.sh seed count [adv] [rich]
D=${FUZZ_DIR:-/tmp/krmfn-fuzz}/s$1; rm -rf $D; python3 "$(dirname "$0")/gen.py" $1 $2 $D/in $3 $4
mkdir -p $D/pure $D/fn
for f in $D/in/*.yaml; do
  b=$(basename $f .yaml)
  P=$D/pp/$b; mkdir -p $P; cp $f $P/
  printf 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: fz\npipeline:\n  mutators:\n  - exec: /bin/cat\n    selectors:\n    - kind: NoSuchKind\n' > $P/Kptfile
  kpt fn render --allow-exec $P > $P.log 2>&1 && cp $P/$b.yaml $D/pure/ || grep -h "^Error" $P.log > $D/pure/$b.err
  P=$D/fnp/$b; mkdir -p $P; cp $f $P/
  printf 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: fz\npipeline:\n  mutators:\n  - exec: /bin/cat\n' > $P/Kptfile
  kpt fn render --allow-exec $P >/dev/null 2>&1 && cp $P/$b.yaml $D/fn/ || true
done
