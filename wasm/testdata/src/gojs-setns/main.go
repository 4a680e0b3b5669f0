//go:build js && wasm

// gojs-setns: a KRM function in the style of the kpt catalog's js/wasm builds. It registers
// processResourceList and processResourceListErrors on the JS global object and blocks forever.
// Input and output are JSON ResourceLists (JSON is YAML; stdlib only, so it builds offline).
//
// functionConfig.data:
//   namespace  the namespace to set (default "wasm-ns")
//   fail       "true": return an SDK-style error string and record an error result
//   panic      "true": panic (the Go program exits)
//   spin       "true": loop forever
//   print      text to print with fmt.Println (goes to the function's stderr, never its output)
//   escape     "true": try to reach the host's global object through Function; report the outcome
//              as an info result ("escaped: ..." or "blocked: ...")
package main

import (
	"encoding/json"
	"fmt"
	"syscall/js"
)

var lastErrors string

func process(input string) (string, error) {
	var rl map[string]any
	if err := json.Unmarshal([]byte(input), &rl); err != nil {
		return "", fmt.Errorf("parsing input: %w", err)
	}
	data := map[string]any{}
	if fc, ok := rl["functionConfig"].(map[string]any); ok {
		if d, ok := fc["data"].(map[string]any); ok {
			data = d
		}
	}
	str := func(k string) string { s, _ := data[k].(string); return s }
	if p := str("print"); p != "" {
		fmt.Println(p)
	}
	if str("panic") == "true" {
		panic("requested panic")
	}
	if str("spin") == "true" {
		for n := 0; ; n++ {
			_ = n
		}
	}
	ns := str("namespace")
	if ns == "" {
		ns = "wasm-ns"
	}
	items, _ := rl["items"].([]any)
	for _, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			continue
		}
		meta, ok := obj["metadata"].(map[string]any)
		if !ok {
			meta = map[string]any{}
			obj["metadata"] = meta
		}
		meta["namespace"] = ns
	}
	results := []any{map[string]any{"message": fmt.Sprintf("namespace %q set on %d resources", ns, len(items)), "severity": "info"}}
	if str("escape") == "true" {
		results = append(results, map[string]any{"message": tryEscape(), "severity": "info"})
	}
	if str("fail") == "true" {
		results = append(results, map[string]any{"message": "namespace failure requested", "severity": "error"})
		rl["results"] = results
		lastErrors = "namespace failure requested"
		return "", fmt.Errorf("error: function failure")
	}
	rl["results"] = results
	out, err := json.Marshal(rl)
	return string(out), err
}

// tryEscape asks the Function constructor (reachable from any JS function) for the real global.
func tryEscape() (outcome string) {
	defer func() {
		if r := recover(); r != nil {
			outcome = fmt.Sprint("blocked: ", r)
		}
	}()
	fn := js.Global().Get("Object").Get("constructor").New("return typeof globalThis.process + '/' + typeof globalThis.fetch")
	return "escaped: " + fn.Invoke().String()
}

func main() {
	js.Global().Set("processResourceList", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) != 1 {
			return "Invalid number of arguments passed"
		}
		lastErrors = ""
		out, err := process(args[0].String())
		if err != nil {
			return "unable to process resource list: " + err.Error()
		}
		return out
	}))
	js.Global().Set("processResourceListErrors", js.FuncOf(func(this js.Value, args []js.Value) any {
		return lastErrors
	}))
	<-make(chan struct{})
}
