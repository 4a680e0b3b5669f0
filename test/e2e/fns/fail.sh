#!/bin/sh
# A function that always fails: reads its input, complains on stderr, exits 1.
cat >/dev/null
echo "refusing to run" >&2
exit 1
