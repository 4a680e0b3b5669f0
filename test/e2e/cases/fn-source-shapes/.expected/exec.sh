kpt fn source .
echo "--- unwrap"
kpt fn source . -o unwrap
echo "--- one file"
kpt fn source app.yaml
