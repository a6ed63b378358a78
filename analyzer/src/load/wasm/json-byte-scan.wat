;; The JSON byte scanner's passes (see ../json-byte-scan.ts), as WebAssembly with 128-bit
;; SIMD. Rebuild json-byte-scan-wasm.ts with `npm run build:wasm`.
;;
;; `scan`: one call scans the $len bytes at address 0 (at most 65536) for the nesting depth, string
;; and escape state (carried from call to call in the globals) and newlines; bytes from 0x80 on
;; mean nothing here (the UTF-8 check is `utf8`, below). Per 64-byte block, with no per-byte branch:
;; bit masks of quotes, backslashes, newlines and brackets; the bytes an odd run of backslashes
;; escapes (simdjson's carry trick); the string mask as the prefix XOR of the quotes left. The
;; block is taken whole when nothing in it needs the byte-by-byte rules: no newline in lines mode
;; (it resets the state), no backslash outside a string (there it escapes nothing, so the masks
;; would be wrong), no bracket that could cross the depth limit or close below depth 0. Otherwise,
;; and for the last bytes, $events applies the JavaScript scanner's rules to the block's quotes,
;; backslashes, newlines and brackets one at a time (the other bytes change nothing).
;;
;; Writes at 65536 the lines (newlines before the bracket, counted from the call's start) where
;; the depth went past $max, each once; returns how many. $newlines: the call's newlines.
(module
  (memory (export "memory") 6)
  (global $depth (export "depth") (mut i64) (i64.const 0))
  (global $inString (export "inString") (mut i32) (i32.const 0))
  (global $escaped (export "escaped") (mut i32) (i32.const 0))
  (global $newlines (export "newlines") (mut i32) (i32.const 0))
  (global $utf8Need (export "utf8Need") (mut i32) (i32.const 0))
  (global $utf8Lo (mut i32) (i32.const 0x80))
  (global $utf8Hi (mut i32) (i32.const 0xbf))
  (func (export "scan") (param $len i32) (param $lines i32) (param $max i64) (result i32)
    (local $i i32) (local $full i32) (local $nl i32) (local $count i32)
    (local $depth i64) (local $str i32) (local $esc i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $w0 v128) (local $w1 v128) (local $w2 v128) (local $w3 v128)
    (local $quote v128) (local $backslash v128) (local $newline v128) (local $open v128) (local $close v128) (local $x20 v128)
    (local $q i64) (local $bs i64) (local $n i64) (local $o i64) (local $c i64)
    (local $starts i64) (local $evenStarts i64) (local $oddStarts i64) (local $evenMask i64)
    (local $evenCarries i64) (local $oddCarries i64) (local $escapedBits i64) (local $escOut i32)
    (local $in i64) (local $opens i64) (local $closes i64)
    (local $lastBit i64) (local $valid i64)
    (local.set $depth (global.get $depth))
    (local.set $str (global.get $inString))
    (local.set $esc (global.get $escaped))
    (local.set $quote (i8x16.splat (i32.const 0x22)))
    (local.set $backslash (i8x16.splat (i32.const 0x5c)))
    (local.set $newline (i8x16.splat (i32.const 0x0a)))
    (local.set $open (i8x16.splat (i32.const 0x7b)))
    (local.set $close (i8x16.splat (i32.const 0x7d)))
    (local.set $x20 (i8x16.splat (i32.const 0x20)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        ;; Past the end the loads read stale bytes (memory goes on): their bits are cleared.
        (local.set $full (i32.ge_u (i32.sub (local.get $len) (local.get $i)) (i32.const 64)))
        (local.set $v0 (v128.load (local.get $i)))
        (local.set $v1 (v128.load offset=16 (local.get $i)))
        (local.set $v2 (v128.load offset=32 (local.get $i)))
        (local.set $v3 (v128.load offset=48 (local.get $i)))
        (local.set $n (i64.or
          (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $newline)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $newline))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $newline)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $newline))) (i32.const 16)))) (i64.const 32))))
        (local.set $q (i64.or
          (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $quote)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $quote))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $quote)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $quote))) (i32.const 16)))) (i64.const 32))))
        (local.set $bs (i64.or
          (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $backslash)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $backslash))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $backslash)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $backslash))) (i32.const 16)))) (i64.const 32))))
        ;; '[' and '{' are 0x5b and 0x7b, ']' and '}' 0x5d and 0x7d: one compare each with bit 0x20 set.
        (local.set $w0 (v128.or (local.get $v0) (local.get $x20)))
        (local.set $w1 (v128.or (local.get $v1) (local.get $x20)))
        (local.set $w2 (v128.or (local.get $v2) (local.get $x20)))
        (local.set $w3 (v128.or (local.get $v3) (local.get $x20)))
        (local.set $o (i64.or
          (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $w0) (local.get $open)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w1) (local.get $open))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $w2) (local.get $open)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w3) (local.get $open))) (i32.const 16)))) (i64.const 32))))
        (local.set $c (i64.or
          (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $w0) (local.get $close)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w1) (local.get $close))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (local.get $w2) (local.get $close)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w3) (local.get $close))) (i32.const 16)))) (i64.const 32))))
        (local.set $lastBit (i64.const 63))
        (if (i32.eqz (local.get $full))
          (then
            (local.set $lastBit (i64.extend_i32_u (i32.sub (i32.sub (local.get $len) (local.get $i)) (i32.const 1))))
            (local.set $valid (i64.sub (i64.shl (i64.const 1) (i64.add (local.get $lastBit) (i64.const 1))) (i64.const 1)))
            (local.set $n (i64.and (local.get $n) (local.get $valid)))
            (local.set $q (i64.and (local.get $q) (local.get $valid)))
            (local.set $bs (i64.and (local.get $bs) (local.get $valid)))
            (local.set $o (i64.and (local.get $o) (local.get $valid)))
            (local.set $c (i64.and (local.get $c) (local.get $valid)))))
        ;; A whole block, unless a newline in lines mode resets the state in it.
        (if (i32.and (local.get $full) (i32.eqz (i32.and (local.get $lines) (i64.ne (local.get $n) (i64.const 0)))))
          (then
            ;; The bytes escaped: each one after an odd run of backslashes (a run that starts at
            ;; an even bit and ends at an odd one, or the reverse), the first one when the last
            ;; block ended in such a run ($esc).
            (local.set $evenMask (i64.xor (i64.const 0x5555555555555555) (i64.extend_i32_u (local.get $esc))))
            (local.set $starts (i64.and (local.get $bs) (i64.xor (i64.shl (local.get $bs) (i64.const 1)) (i64.const -1))))
            (local.set $evenStarts (i64.and (local.get $starts) (local.get $evenMask)))
            (local.set $oddStarts (i64.and (local.get $starts) (i64.xor (local.get $evenMask) (i64.const -1))))
            (local.set $evenCarries (i64.add (local.get $bs) (local.get $evenStarts)))
            (local.set $oddCarries (i64.add (local.get $bs) (local.get $oddStarts)))
            ;; An odd-started run carried out of the block: the next block's first byte is escaped.
            (local.set $escOut (i64.lt_u (local.get $oddCarries) (local.get $bs)))
            (local.set $oddCarries (i64.or (local.get $oddCarries) (i64.extend_i32_u (local.get $esc))))
            (local.set $escapedBits (i64.or
              (i64.and (i64.and (local.get $evenCarries) (i64.xor (local.get $bs) (i64.const -1))) (i64.const 0xAAAAAAAAAAAAAAAA))
              (i64.and (i64.and (local.get $oddCarries) (i64.xor (local.get $bs) (i64.const -1))) (i64.const 0x5555555555555555))))
            ;; In a string after each byte: the running parity of the quotes not escaped.
            (local.set $in (i64.and (local.get $q) (i64.xor (local.get $escapedBits) (i64.const -1))))
            (local.set $in (i64.xor (local.get $in) (i64.shl (local.get $in) (i64.const 1))))
            (local.set $in (i64.xor (local.get $in) (i64.shl (local.get $in) (i64.const 2))))
            (local.set $in (i64.xor (local.get $in) (i64.shl (local.get $in) (i64.const 4))))
            (local.set $in (i64.xor (local.get $in) (i64.shl (local.get $in) (i64.const 8))))
            (local.set $in (i64.xor (local.get $in) (i64.shl (local.get $in) (i64.const 16))))
            (local.set $in (i64.xor (local.get $in) (i64.shl (local.get $in) (i64.const 32))))
            (local.set $in (i64.xor (local.get $in) (i64.sub (i64.const 0) (i64.extend_i32_u (local.get $str)))))
            (local.set $opens (i64.popcnt (i64.and (local.get $o) (i64.xor (local.get $in) (i64.const -1)))))
            (local.set $closes (i64.popcnt (i64.and (local.get $c) (i64.xor (local.get $in) (i64.const -1)))))
            (if (i32.and
                  (i64.eqz (i64.and (local.get $bs) (i64.xor (local.get $in) (i64.const -1))))
                  (i32.and
                    (i64.ge_s (local.get $depth) (local.get $closes))
                    (i64.le_s (i64.add (local.get $depth) (local.get $opens)) (local.get $max))))
              (then
                (local.set $depth (i64.add (local.get $depth) (i64.sub (local.get $opens) (local.get $closes))))
                (local.set $str (i32.wrap_i64 (i64.shr_u (local.get $in) (i64.const 63))))
                (local.set $esc (local.get $escOut))
                (local.set $nl (i32.add (local.get $nl) (i32.wrap_i64 (i64.popcnt (local.get $n)))))
                (local.set $i (i32.add (local.get $i) (i32.const 64)))
                (br $blocks)))))
        ;; Otherwise byte by byte ($events).
        (global.set $depth (local.get $depth))
        (global.set $inString (local.get $str))
        (global.set $escaped (local.get $esc))
        (global.set $newlines (local.get $nl))
        (local.set $count (call $events (local.get $n) (local.get $q) (local.get $bs) (local.get $o) (local.get $c)
          (local.get $lastBit) (local.get $lines) (local.get $max) (local.get $count)))
        (local.set $depth (global.get $depth))
        (local.set $str (global.get $inString))
        (local.set $esc (global.get $escaped))
        (local.set $nl (global.get $newlines))
        (local.set $i (i32.add (local.get $i) (i32.const 64)))
        (br $blocks)))
    (global.set $depth (local.get $depth))
    (global.set $inString (local.get $str))
    (global.set $escaped (local.get $esc))
    (global.set $newlines (local.get $nl))
    (local.get $count))
  ;; One block byte by byte, the JavaScript scanner's rules, visiting only the bytes that can
  ;; matter: quotes, backslashes, newlines, brackets (their masks given; $lastBit: the block's last
  ;; byte). An escaped byte is taken off the set, unless it is a newline. The state is in the
  ;; globals; $count lines are reported so far in this call; returns the new count.
  (func $events (param $n i64) (param $q i64) (param $bs i64) (param $o i64) (param $c i64)
    (param $lastBit i64) (param $lines i32) (param $max i64) (param $count i32) (result i32)
    (local $m i64) (local $bit i64) (local $depth i64) (local $str i32) (local $esc i32) (local $nl i32)
    (local.set $depth (global.get $depth))
    (local.set $str (global.get $inString))
    (local.set $esc (global.get $escaped))
    (local.set $nl (global.get $newlines))
    (local.set $m (i64.or (i64.or (i64.or (local.get $n) (local.get $q)) (i64.or (local.get $o) (local.get $c))) (local.get $bs)))
    (if (local.get $esc)
      (then
        (local.set $esc (i32.const 0))
        (local.set $m (i64.and (local.get $m) (i64.or (local.get $n) (i64.const -2))))))
    (block $blockDone
      (loop $events
        (br_if $blockDone (i64.eqz (local.get $m)))
        (local.set $bit (i64.and (local.get $m) (i64.sub (i64.const 0) (local.get $m))))
        (local.set $m (i64.xor (local.get $m) (local.get $bit)))
        (if (i64.ne (i64.and (local.get $n) (local.get $bit)) (i64.const 0))
          (then
            (local.set $nl (i32.add (local.get $nl) (i32.const 1)))
            (if (local.get $lines)
              (then
                (local.set $str (i32.const 0))
                (local.set $depth (i64.const 0))))
            (br $events)))
        (if (local.get $str)
          (then
            (if (i64.ne (i64.and (local.get $q) (local.get $bit)) (i64.const 0))
              (then (local.set $str (i32.const 0)))
              (else
                (if (i64.ne (i64.and (local.get $bs) (local.get $bit)) (i64.const 0))
                  (then
                    (if (i64.eq (local.get $bit) (i64.shl (i64.const 1) (local.get $lastBit)))
                      (then (local.set $esc (i32.const 1)))
                      (else
                        (local.set $m (i64.and (local.get $m)
                          (i64.xor (i64.and (i64.shl (local.get $bit) (i64.const 1)) (i64.xor (local.get $n) (i64.const -1))) (i64.const -1))))))))))
            (br $events)))
        (if (i64.ne (i64.and (local.get $q) (local.get $bit)) (i64.const 0))
          (then
            (local.set $str (i32.const 1))
            (br $events)))
        (if (i64.ne (i64.and (local.get $o) (local.get $bit)) (i64.const 0))
          (then
            (local.set $depth (i64.add (local.get $depth) (i64.const 1)))
            (if (i32.and (i64.gt_s (local.get $depth) (local.get $max)) (i32.or (i32.eqz (local.get $count)) (i32.ne (local.get $nl) (i32.load offset=65532 (i32.shl (local.get $count) (i32.const 2))))))
              (then
                (i32.store offset=65536 (i32.shl (local.get $count) (i32.const 2)) (local.get $nl))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))
))
            (br $events)))
        ;; What is left: a closing bracket, or a backslash outside a string (nothing).
        (if (i32.and (i64.ne (i64.and (local.get $c) (local.get $bit)) (i64.const 0)) (i64.gt_s (local.get $depth) (i64.const 0)))
          (then (local.set $depth (i64.sub (local.get $depth) (i64.const 1)))))
        (br $events)))
    (global.set $depth (local.get $depth))
    (global.set $inString (local.get $str))
    (global.set $escaped (local.get $esc))
    (global.set $newlines (local.get $nl))
    (local.get $count))

  ;; The UTF-8 check of the $len bytes at 0, for a chunk Node's validator refused: the lines
  ;; (newlines before, counted from the call's start) with a byte sequence that is not UTF-8,
  ;; each once, written at 65536; returns how many. The JavaScript scanner's rules: the Unicode
  ;; table of well-formed sequences, a byte that breaks a character read again as what it is.
  ;; A character not finished at the end carries over in the globals. 16 ASCII bytes at a step.
  (func (export "utf8") (param $len i32) (result i32)
    (local $i i32) (local $b i32) (local $nl i32) (local $count i32) (local $last i32)
    (local $need i32) (local $lo i32) (local $hi i32) (local $v v128)
    (local.set $need (global.get $utf8Need))
    (local.set $lo (global.get $utf8Lo))
    (local.set $hi (global.get $utf8Hi))
    (local.set $last (i32.const -1))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (if (i32.and (i32.eqz (local.get $need)) (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $len)))
          (then
            (local.set $v (v128.load (local.get $i)))
            (if (i32.eqz (i8x16.bitmask (local.get $v)))
              (then
                (local.set $nl (i32.add (local.get $nl)
                  (i32.popcnt (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0a)))))))
                (local.set $i (i32.add (local.get $i) (i32.const 16)))
                (br $bytes)))))
        (local.set $b (i32.load8_u (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (block $lead
          (if (local.get $need)
            (then
              (if (i32.and (i32.ge_u (local.get $b) (local.get $lo)) (i32.le_u (local.get $b) (local.get $hi)))
                (then
                  (local.set $need (i32.sub (local.get $need) (i32.const 1)))
                  (local.set $lo (i32.const 0x80))
                  (local.set $hi (i32.const 0xbf))
                  (br $bytes)))
              ;; The character is broken: noted below, and the byte is read again.
              (local.set $need (i32.const 0))
              (local.set $i (i32.sub (local.get $i) (i32.const 1)))
              (br $lead)))
          (if (i32.lt_u (local.get $b) (i32.const 0x80))
            (then
              (local.set $nl (i32.add (local.get $nl) (i32.eq (local.get $b) (i32.const 0x0a))))
              (br $bytes)))
          (local.set $need
            (select (i32.const 1)
              (select (i32.const 2) (select (i32.const 3) (i32.const 0) (i32.and (i32.ge_u (local.get $b) (i32.const 0xf0)) (i32.le_u (local.get $b) (i32.const 0xf4))))
                (i32.and (i32.ge_u (local.get $b) (i32.const 0xe0)) (i32.le_u (local.get $b) (i32.const 0xef))))
              (i32.and (i32.ge_u (local.get $b) (i32.const 0xc2)) (i32.le_u (local.get $b) (i32.const 0xdf)))))
          (if (local.get $need)
            (then
              (local.set $lo (select (i32.const 0xa0) (select (i32.const 0x90) (i32.const 0x80) (i32.eq (local.get $b) (i32.const 0xf0))) (i32.eq (local.get $b) (i32.const 0xe0))))
              (local.set $hi (select (i32.const 0x9f) (select (i32.const 0x8f) (i32.const 0xbf) (i32.eq (local.get $b) (i32.const 0xf4))) (i32.eq (local.get $b) (i32.const 0xed))))
              (br $bytes))))
        ;; Not UTF-8: a broken character (its breaking byte read again next), or a byte no character starts with.
        (if (i32.ne (local.get $nl) (local.get $last))
          (then
            (i32.store offset=65536 (i32.shl (local.get $count) (i32.const 2)) (local.get $nl))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $last (local.get $nl))))
        (br $bytes)))
    (global.set $utf8Need (local.get $need))
    (global.set $utf8Lo (local.get $lo))
    (global.set $utf8Hi (local.get $hi))
    (global.set $newlines (local.get $nl))
    (local.get $count))
)
