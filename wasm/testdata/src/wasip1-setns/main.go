// wasip1-setns: a WASI command KRM function built with Go (GOOS=wasip1). Reads a JSON
// ResourceList on stdin, sets metadata.namespace on every item (functionConfig.data.namespace,
// default "wasm-ns"), writes the list with an info result to stdout. A goroutine does the work
// and sleeps briefly first, so the run exercises the Go scheduler and poll_oneoff on the host.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reading stdin:", err)
		os.Exit(1)
	}
	var rl map[string]any
	if err := json.Unmarshal(in, &rl); err != nil {
		fmt.Fprintln(os.Stderr, "parsing input:", err)
		os.Exit(1)
	}
	ns := "wasm-ns"
	if fc, ok := rl["functionConfig"].(map[string]any); ok {
		if d, ok := fc["data"].(map[string]any); ok {
			if s, ok := d["namespace"].(string); ok && s != "" {
				ns = s
			}
		}
	}
	done := make(chan int)
	go func() {
		time.Sleep(time.Millisecond)
		items, _ := rl["items"].([]any)
		for _, it := range items {
			if obj, ok := it.(map[string]any); ok {
				meta, ok := obj["metadata"].(map[string]any)
				if !ok {
					meta = map[string]any{}
					obj["metadata"] = meta
				}
				meta["namespace"] = ns
			}
		}
		done <- len(items)
	}()
	n := <-done
	rl["results"] = []any{map[string]any{"message": fmt.Sprintf("namespace %q set on %d resources", ns, n), "severity": "info"}}
	out, _ := json.Marshal(rl)
	os.Stdout.Write(out)
	fmt.Fprintf(os.Stderr, "wasip1-setns: %d resources\n", n)
}
