kpt fn source .
echo "--- unwrap"
kpt fn source . -o unwrap
echo "--- one file"
kpt fn source app.yaml
echo "--- one JSON file, unwrapped"
kpt fn source sub/token.json -o unwrap
