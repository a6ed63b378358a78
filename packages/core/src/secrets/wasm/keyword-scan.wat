;; The keyword scanner's inner loop (see ../keyword-scanner.ts), as WebAssembly: one pass over
;; UTF-16 code units through the keyword DFA, recording keyword-end states and base64 runs.
;; Rebuild keyword-scan-wasm.ts with: node packages/core/src/secrets/wasm/build.mjs
;;
;; Memory header (i32): [0] hits, [4] runs, [8] flags (1 = '%', 2 = '\'), [12] state, [16] last
;; non-base64 position, [20] character kinds seen in the current run (1 lower, 2 upper, 4 digit),
;; [24] first character of the run could start base64 of ASCII (A-Z, a-f). State, last, kinds and
;; first carry over from chunk to chunk. Only runs that could be base64 of text are reported:
;; longer than minRun, all three kinds, a plausible first character.
(module
  (memory (export "memory") 1)
  (func (export "scan")
    (param $txt i32) (param $n i32) (param $base i32) (param $tbl i32) (param $cls i32)
    (param $hits i32) (param $runs i32) (param $firstEmit i32) (param $minRun i32)
    (local $i i32) (local $c i32) (local $k i32) (local $state i32) (local $last i32)
    (local $nh i32) (local $nr i32) (local $flags i32) (local $pos i32) (local $kinds i32) (local $first i32)
    (local.set $state (i32.load (i32.const 12)))
    (local.set $last (i32.load (i32.const 16)))
    (local.set $flags (i32.load (i32.const 8)))
    (local.set $kinds (i32.load (i32.const 20)))
    (local.set $first (i32.load (i32.const 24)))
    (block $done
      (loop $loop
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $c (i32.load16_u (i32.add (local.get $txt) (i32.shl (local.get $i) (i32.const 1)))))
        (local.set $k
          (select
            (i32.load8_u (i32.add (local.get $cls) (i32.and (local.get $c) (i32.const 127))))
            (i32.const 0)
            (i32.lt_u (local.get $c) (i32.const 128))))
        (local.set $state
          (i32.load16_u
            (i32.add (local.get $tbl)
              (i32.shl
                (i32.or (i32.shl (local.get $state) (i32.const 6)) (i32.and (local.get $k) (i32.const 63)))
                (i32.const 1)))))
        (local.set $pos (i32.add (local.get $base) (local.get $i)))
        (if (i32.ge_u (local.get $state) (local.get $firstEmit))
          (then
            (i32.store (i32.add (local.get $hits) (i32.shl (local.get $nh) (i32.const 3))) (local.get $state))
            (i32.store offset=4 (i32.add (local.get $hits) (i32.shl (local.get $nh) (i32.const 3))) (local.get $pos))
            (local.set $nh (i32.add (local.get $nh) (i32.const 1)))))
        (if (i32.lt_u (local.get $k) (i32.const 128))
          (then
            (if (i32.and
                  (i32.and (i32.gt_s (i32.sub (local.get $pos) (local.get $last)) (local.get $minRun))
                           (i32.eq (local.get $kinds) (i32.const 7)))
                  (local.get $first))
              (then
                (i32.store (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (i32.add (local.get $last) (i32.const 1)))
                (i32.store offset=4 (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (local.get $pos))
                (local.set $nr (i32.add (local.get $nr) (i32.const 1)))))
            (local.set $last (local.get $pos))
            (local.set $kinds (i32.const 0))
            (if (i32.eq (local.get $c) (i32.const 37)) (then (local.set $flags (i32.or (local.get $flags) (i32.const 1)))))
            (if (i32.eq (local.get $c) (i32.const 92)) (then (local.set $flags (i32.or (local.get $flags) (i32.const 2))))))
          (else
            (if (i32.eq (local.get $pos) (i32.add (local.get $last) (i32.const 1)))
              (then
                (local.set $first
                  (i32.or (i32.lt_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 26))
                          (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 6))))))
            (local.set $kinds
              (i32.or (local.get $kinds)
                (i32.or
                  (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 26))
                  (i32.or
                    (i32.shl (i32.lt_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 26)) (i32.const 1))
                    (i32.shl (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)) (i32.const 2))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $loop)))
    (i32.store (i32.const 0) (local.get $nh))
    (i32.store (i32.const 4) (local.get $nr))
    (i32.store (i32.const 8) (local.get $flags))
    (i32.store (i32.const 12) (local.get $state))
    (i32.store (i32.const 16) (local.get $last))
    (i32.store (i32.const 20) (local.get $kinds))
    (i32.store (i32.const 24) (local.get $first)))
)
