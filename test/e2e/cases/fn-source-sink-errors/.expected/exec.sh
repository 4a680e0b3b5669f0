# Each failing command prints kpt's one error line and exits 1; nothing is written.
run() { "$@"; echo "exit $?"; }
run kpt fn source missing-dir
run kpt fn source . --fn-config missing.yaml
run kpt fn source . --fn-config cm.yaml
run kpt fn source . -o json
run kpt fn source . --include-meta-resources
run kpt fn source a b
run kpt fn sink
run kpt fn sink .
run kpt fn doc
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n' | kpt fn sink plain-out
run ls plain-out
