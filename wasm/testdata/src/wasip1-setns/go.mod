module krmfn.dev/testdata/wasip1-setns

go 1.21
