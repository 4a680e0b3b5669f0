# Text after a closed quoted scalar is a syntax error (go-yaml); nothing is rewritten.
kpt fn render .
echo "exit $?"
kpt fn eval . --exec cat
echo "exit $?"
