;; spin: a WASI command that says so on stderr, then loops forever.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1 1)
  ;; iovec at 0: { buf = 16, len = 15 }; text at 16
  (data (i32.const 0) "\10\00\00\00\0f\00\00\00")
  (data (i32.const 16) "spin: spinning\0a")
  (func (export "_start")
    (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 8)))
    (loop $forever (br $forever))))
