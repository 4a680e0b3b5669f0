module krmfn.dev/testdata/gojs-setns

go 1.19
