;; spin: a WASI command that loops forever.
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1 1)
  (func (export "_start")
    (loop $forever (br $forever))
    (call $exit (i32.const 0))))
