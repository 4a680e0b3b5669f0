#!/bin/sh
# A function that replaces everything with one plain ConfigMap (no ResourceList wrapper).
cat > /dev/null
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: only\n'
