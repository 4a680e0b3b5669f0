# Paths in messages are shown as typed (relative stays relative), except where kpt absolutises.
run() { "$@"; echo "exit $?"; }
mkdir taken
ln -s app link
ln -s ../app nested-link-target-dir 2>/dev/null
mkdir deeper && ln -s ../app deeper/up
run kpt fn render ./app -o ./taken
run kpt fn eval app --exec cat -o taken
run kpt fn render link -o unwrap
run kpt fn render ./deeper/../deeper/up -o unwrap
run kpt fn render missing/pkg
run kpt fn eval app --exec cat --fn-config no/such.yaml
run kpt fn render app --results-dir /dev/null/results
run kpt fn render app --results-dir results
run kpt fn render app/cm.yaml
rm -f link deeper/up nested-link-target-dir
