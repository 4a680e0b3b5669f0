set -e
# The same pipeline four ways: the oracle alone, krmfn alone, and both mixed. All must agree.
kpt fn source . | kpt fn eval - -i set-namespace:v0.4.1 -- namespace=prod | kpt fn sink ../out-kpt
krmfn fn source . | krmfn fn eval - -i set-namespace:v0.4.1 -- namespace=prod | krmfn fn sink ../out-krmfn
kpt fn source . | krmfn fn eval - -i set-namespace:v0.4.1 -- namespace=prod | kpt fn sink ../out-mixed1
krmfn source . | kpt fn eval - -i set-namespace:v0.4.1 -- namespace=prod | krmfn sink ../out-mixed2
diff -r ../out-kpt ../out-krmfn
diff -r ../out-kpt ../out-mixed1
diff -r ../out-kpt ../out-mixed2
# A function config through source, then an unwrap of the result.
kpt fn source . --fn-config fc.yaml | krmfn fn eval - -i set-labels:v0.2.0 --fn-config fc.yaml -o unwrap
mv ../out-kpt sunk
