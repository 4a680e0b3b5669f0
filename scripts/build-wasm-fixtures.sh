#!/usr/bin/env bash
# Rebuilds the committed WASM fixtures in wasm/testdata/ from wasm/testdata/src/ and rewrites
# wasm/testdata/SHA256SUMS. CI never runs this: it uses the committed binaries.
#
# Toolchains (Debian bookworm; backports for Go 1.23):
#   apt-get install -y clang lld wasi-libc libclang-rt-14-dev-wasm32 wabt golang-go golang-1.23-go
# Check mode: `scripts/build-wasm-fixtures.sh --check` verifies the binaries against SHA256SUMS only.
set -euo pipefail
cd "$(dirname "$0")/../wasm/testdata"

if [[ "${1:-}" == "--check" ]]; then
  sha256sum --check --quiet SHA256SUMS
  echo "wasm fixtures match SHA256SUMS"
  exit 0
fi

CC="clang --target=wasm32-wasi -O2 -Wl,--strip-all"
for f in echo environ annotate annotate-yaml results fail hog flood openf trap; do
  $CC "src/$f.c" -o "$f.wasm"
done
# A module with a small declared maximum (16 MiB) and one that imports its memory from the host.
$CC -Wl,--max-memory=16777216 src/hog.c -o hog16m.wasm
$CC -Wl,--import-memory src/hog.c -o hog-import.wasm
wat2wasm src/spin.wat -o spin.wasm

export GOTOOLCHAIN=local GOPROXY=off GOFLAGS="-trimpath -buildvcs=false" CGO_ENABLED=0
( cd src/gojs-setns
  GOOS=js GOARCH=wasm /usr/lib/go-1.19/bin/go build -ldflags='-s -w' -o ../../gojs-setns-go119.wasm .
  GOOS=js GOARCH=wasm /usr/lib/go-1.23/bin/go build -ldflags='-s -w' -o ../../gojs-setns-go123.wasm . )
( cd src/wasip1-setns
  GOOS=wasip1 GOARCH=wasm /usr/lib/go-1.23/bin/go build -ldflags='-s -w' -o ../../wasip1-setns-go123.wasm . )

sha256sum ./*.wasm | sed 's# \./# #' > SHA256SUMS
cat SHA256SUMS
