#!/bin/sh
# A function that prints malformed YAML.
cat > /dev/null
echo 'items: [unclosed'
