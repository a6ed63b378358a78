;; The keyword scanner's inner loop (see ../keyword-scanner.ts), as WebAssembly with 128-bit SIMD.
;; Rebuild keyword-scan-wasm.ts with: node packages/core/src/secrets/wasm/build.mjs
;;
;; One call handles one chunk of a text, given as UTF-16 code units at $u16:
;;  1. narrow the code units to bytes ($bytes): ASCII stays, everything else becomes a byte no
;;     keyword and no base64 run contains (0 or 255), then 32 zero bytes of padding;
;;  2. per 16 bytes, a Teddy filter (nibble shuffles over the first three or four characters of
;;     every keyword, in 16 buckets) marks the positions where a keyword may start; a candidate
;;     whose first characters hash into the sets of keyword starts ($verify) walks the keyword
;;     trie, and each keyword the walk completes is a hit (trie state, end);
;;  3. per 16 bytes, the base64-alphabet mask (two more nibble tables): a run of 15 or more base64
;;     characters must cross a 16-byte boundary, so only the first and last non-base64 byte of
;;     each block matter; the rare long run is then checked byte by byte;
;;  4. whether a '%' or a '\' occurs.
;;
;; Memory header (i32): [0] hits, [4] runs, [8] flags (1 = '%', 2 = '\', 4 = hit buffer full),
;; [12] absolute position of the last non-base64 character (carried from chunk to chunk).
;; Teddy tables at $teddy (see ../teddy-buckets.ts): per set of eight buckets, for the character
;; at offset j = 0, 1, 2 (and 3 in the second set) of a keyword, 16 bytes indexed by the low
;; nibble then 16 by the high nibble (of the character with bit 0x20 set), each byte a set of
;; buckets; then the base64 class tables (low nibble, high nibble) at 224. At $verify, three
;; 512-byte bit sets of keyword starts: first four, three and two characters (bit 0x20 set, as
;; little-endian bytes of an i32), each at bit (x * 0x9E3779B1) >>> 20. Trie at $trie: u16 next
;; state per (state << 6 | class); 0 = no keyword continues.
(module
  (memory (export "memory") 1)
  (func (export "scan")
    (param $u16 i32) (param $n i32) (param $loaded i32) (param $base i32) (param $bytes i32)
    (param $cls i32) (param $teddy i32) (param $verify i32) (param $trie i32) (param $firstEmit i32)
    (param $hits i32) (param $hitCap i32) (param $runs i32) (param $minRun i32)
    (local $i i32) (local $p i32) (local $k i32) (local $s i32) (local $m i32) (local $nb i32)
    (local $nh i32) (local $nr i32) (local $flags i32) (local $last i32) (local $first i32)
    (local $kinds i32) (local $c i32) (local $j i32) (local $e i32)
    (local $nhi0 v128) (local $loc v128) (local $hic v128)
    (local $b0 v128) (local $f v128) (local $cand v128)
    (local $pct v128) (local $bsl v128)
    (local $lo0 v128) (local $hi0 v128) (local $lo1 v128) (local $hi1 v128) (local $lo2 v128) (local $hi2 v128)
    (local $lo3 v128) (local $hi3 v128) (local $lo4 v128) (local $hi4 v128) (local $lo5 v128) (local $hi5 v128)
    (local $lo6 v128) (local $hi6 v128)
    (local $nlo v128) (local $nhi v128) (local $candB v128)
    (local.set $lo0 (v128.load (local.get $teddy)))
    (local.set $hi0 (v128.load offset=16 (local.get $teddy)))
    (local.set $lo1 (v128.load offset=32 (local.get $teddy)))
    (local.set $hi1 (v128.load offset=48 (local.get $teddy)))
    (local.set $lo2 (v128.load offset=64 (local.get $teddy)))
    (local.set $hi2 (v128.load offset=80 (local.get $teddy)))
    (local.set $lo3 (v128.load offset=96 (local.get $teddy)))
    (local.set $hi3 (v128.load offset=112 (local.get $teddy)))
    (local.set $lo4 (v128.load offset=128 (local.get $teddy)))
    (local.set $hi4 (v128.load offset=144 (local.get $teddy)))
    (local.set $lo5 (v128.load offset=160 (local.get $teddy)))
    (local.set $hi5 (v128.load offset=176 (local.get $teddy)))
    (local.set $flags (i32.load (i32.const 8)))
    (local.set $last (i32.load (i32.const 12)))
    (local.set $lo6 (v128.load offset=192 (local.get $teddy)))
    (local.set $hi6 (v128.load offset=208 (local.get $teddy)))
    (local.set $loc (v128.load offset=224 (local.get $teddy)))
    (local.set $hic (v128.load offset=240 (local.get $teddy)))

    ;; 1. UTF-16 -> bytes. narrow_i16x8_u saturates: 0x100..0x7fff -> 255, 0x8000..0xffff -> 0.
    (block $narrowed
      (loop $narrow
        (br_if $narrowed (i32.ge_u (local.get $i) (local.get $loaded)))
        (v128.store (i32.add (local.get $bytes) (local.get $i))
          (i8x16.narrow_i16x8_u
            (v128.load (i32.add (local.get $u16) (i32.shl (local.get $i) (i32.const 1))))
            (v128.load offset=16 (i32.add (local.get $u16) (i32.shl (local.get $i) (i32.const 1))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $narrow)))
    (v128.store (i32.add (local.get $bytes) (local.get $loaded)) (v128.const i32x4 0 0 0 0))
    (v128.store offset=16 (i32.add (local.get $bytes) (local.get $loaded)) (v128.const i32x4 0 0 0 0))

    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $p) (local.get $n)))
        (local.set $b0 (v128.load (i32.add (local.get $bytes) (local.get $p))))

;; 2. Teddy: buckets whose keywords' first characters may sit at p+k, p+k+1, ... (two table
        ;; sets of eight buckets: $cand over three characters, $candB over four).
        ;; bit 0x20 sets bit 1 of the high nibble and leaves the low nibble as it is
        (local.set $nlo (v128.and (local.get $b0) (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15)))
        (local.set $nhi0 (i8x16.shr_u (local.get $b0) (i32.const 4)))
        (local.set $nhi (v128.or (local.get $nhi0) (v128.const i8x16 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2)))
        ;; 3a. Base64 alphabet, by the same nibbles (class tables after the Teddy tables)
        (local.set $nb (i8x16.bitmask (i8x16.eq
          (v128.and (i8x16.swizzle (local.get $loc) (local.get $nlo)) (i8x16.swizzle (local.get $hic) (local.get $nhi0)))
          (v128.const i32x4 0 0 0 0))))
        (local.set $cand (v128.and (i8x16.swizzle (local.get $lo0) (local.get $nlo)) (i8x16.swizzle (local.get $hi0) (local.get $nhi))))
        (local.set $candB (v128.and (i8x16.swizzle (local.get $lo3) (local.get $nlo)) (i8x16.swizzle (local.get $hi3) (local.get $nhi))))
        (local.set $f (v128.or (v128.load offset=1 (i32.add (local.get $bytes) (local.get $p)))
                               (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))
        (local.set $nlo (v128.and (local.get $f) (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15)))
        (local.set $nhi (i8x16.shr_u (local.get $f) (i32.const 4)))
        (local.set $cand (v128.and (local.get $cand)
          (v128.and (i8x16.swizzle (local.get $lo1) (local.get $nlo)) (i8x16.swizzle (local.get $hi1) (local.get $nhi)))))
        (local.set $candB (v128.and (local.get $candB)
          (v128.and (i8x16.swizzle (local.get $lo4) (local.get $nlo)) (i8x16.swizzle (local.get $hi4) (local.get $nhi)))))
        (local.set $f (v128.or (v128.load offset=2 (i32.add (local.get $bytes) (local.get $p)))
                               (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))
        (local.set $nlo (v128.and (local.get $f) (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15)))
        (local.set $nhi (i8x16.shr_u (local.get $f) (i32.const 4)))
        (local.set $cand (v128.and (local.get $cand)
          (v128.and (i8x16.swizzle (local.get $lo2) (local.get $nlo)) (i8x16.swizzle (local.get $hi2) (local.get $nhi)))))
        (local.set $candB (v128.and (local.get $candB)
          (v128.and (i8x16.swizzle (local.get $lo5) (local.get $nlo)) (i8x16.swizzle (local.get $hi5) (local.get $nhi)))))
        ;; the second set also looks at a fourth character
        (local.set $f (v128.or (v128.load offset=3 (i32.add (local.get $bytes) (local.get $p)))
                               (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))
        (local.set $nlo (v128.and (local.get $f) (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15)))
        (local.set $nhi (i8x16.shr_u (local.get $f) (i32.const 4)))
        (local.set $cand (v128.or (local.get $cand)
          (v128.and (local.get $candB)
            (v128.and (i8x16.swizzle (local.get $lo6) (local.get $nlo)) (i8x16.swizzle (local.get $hi6) (local.get $nhi))))))
        (local.set $m
          (i32.xor (i8x16.bitmask (i8x16.eq (local.get $cand) (v128.const i32x4 0 0 0 0))) (i32.const 0xffff)))
        (if (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $n))
          (then
            (local.set $m (i32.and (local.get $m)
              (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $n) (local.get $p))) (i32.const 1))))))
        ;; Walk the trie from each candidate start; every keyword-end state on the way is a hit.
        (block $walked
          (loop $candidates
            (br_if $walked (i32.eqz (local.get $m)))
            (local.set $i (i32.add (local.get $p) (i32.ctz (local.get $m))))
            (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
            ;; Most candidates are ordinary words: before the walk, the first four characters (bit 0x20
            ;; set), and their first three and first two, are looked up in three 4096-bit sets of
            ;; keyword starts (by a multiplicative hash); a keyword shorter than four characters is in
            ;; the set of its length. A walk only follows a hit in one of them.
            (local.set $c (i32.or (i32.load (i32.add (local.get $bytes) (local.get $i))) (i32.const 0x20202020)))
            (local.set $e (i32.mul (local.get $c) (i32.const 0x9E3779B1)))
            (local.set $j (i32.mul (i32.and (local.get $c) (i32.const 0xffffff)) (i32.const 0x9E3779B1)))
            (local.set $k (i32.mul (i32.and (local.get $c) (i32.const 0xffff)) (i32.const 0x9E3779B1)))
            (if (i32.and (i32.const 1) (i32.or (i32.or
                  (i32.shr_u (i32.load8_u (i32.add (local.get $verify) (i32.shr_u (local.get $e) (i32.const 23))))
                             (i32.and (i32.shr_u (local.get $e) (i32.const 20)) (i32.const 7)))
                  (i32.shr_u (i32.load8_u offset=512 (i32.add (local.get $verify) (i32.shr_u (local.get $j) (i32.const 23))))
                             (i32.and (i32.shr_u (local.get $j) (i32.const 20)) (i32.const 7))))
                  (i32.shr_u (i32.load8_u offset=1024 (i32.add (local.get $verify) (i32.shr_u (local.get $k) (i32.const 23))))
                             (i32.and (i32.shr_u (local.get $k) (i32.const 20)) (i32.const 7)))))
              (then
                (local.set $s (i32.const 0))
                (block $dead
                  (loop $walk
                    (local.set $s
                      (i32.load16_u
                        (i32.add (local.get $trie)
                          (i32.shl
                            (i32.or (i32.shl (local.get $s) (i32.const 6))
                                    (i32.load8_u (i32.add (local.get $cls) (i32.load8_u (i32.add (local.get $bytes) (local.get $i))))))
                            (i32.const 1)))))
                    (br_if $dead (i32.eqz (local.get $s)))
                    (if (i32.ge_u (local.get $s) (local.get $firstEmit))
                      (then
                        (if (i32.lt_u (local.get $nh) (local.get $hitCap))
                          (then
                            (i32.store (i32.add (local.get $hits) (i32.shl (local.get $nh) (i32.const 3))) (local.get $s))
                            (i32.store offset=4 (i32.add (local.get $hits) (i32.shl (local.get $nh) (i32.const 3)))
                              (i32.add (local.get $base) (local.get $i)))
                            (local.set $nh (i32.add (local.get $nh) (i32.const 1))))
                          (else (local.set $flags (i32.or (local.get $flags) (i32.const 4)))))))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $walk)))))
            (br $candidates)))

        ;; 3b. A run of base64 characters longer than minRun ends at the block's first non-base64
        ;; byte; it is reported when it also holds lowercase, uppercase and digits (or '=' padding
        ;; instead of digits) and starts with
        ;; A-Z or a-f (checked here, rarely: most runs are identifiers that start with g-z). A run
        ;; that began in an earlier chunk is reported with start -(s+1), for the caller to check.
        ;; Without branching on nb (a block of base64 characters only, common in code, is not
        ;; predictable): ctz(0) = 32 and the test below fails; last moves only when nb is not 0.
        (local.set $first (i32.add (i32.add (local.get $base) (local.get $p)) (i32.ctz (local.get $nb))))
        (if (i32.and (i32.ne (local.get $nb) (i32.const 0))
                     (i32.gt_s (i32.sub (local.get $first) (local.get $last)) (local.get $minRun)))
          (then
            (local.set $s (i32.add (local.get $last) (i32.const 1)))
            (if (i32.lt_s (local.get $s) (local.get $base))
              (then
                (i32.store (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (i32.sub (i32.const -1) (local.get $s)))
                (i32.store offset=4 (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (local.get $first))
                (local.set $nr (i32.add (local.get $nr) (i32.const 1))))
              (else
                (local.set $j (i32.add (local.get $bytes) (i32.sub (local.get $s) (local.get $base))))
                (local.set $e (i32.add (local.get $bytes) (i32.sub (local.get $first) (local.get $base))))
                (local.set $c (i32.load8_u (local.get $j)))
                (local.set $kinds (i32.const 0))
                (if (i32.or (i32.lt_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 26))
                            (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 6)))
                  (then
                    (block $kindsDone
                      (loop $kindsLoop
                        (br_if $kindsDone (i32.ge_u (local.get $j) (local.get $e)))
                        (local.set $c (i32.load8_u (local.get $j)))
                        (local.set $kinds (i32.or (local.get $kinds)
                          (i32.or (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 26))
                            (i32.or (i32.shl (i32.lt_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 26)) (i32.const 1))
                                    (i32.shl (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)) (i32.const 2))))))
                        (br_if $kindsDone (i32.eq (local.get $kinds) (i32.const 7)))
                        (local.set $j (i32.add (local.get $j) (i32.const 1)))
                        (br $kindsLoop)))))
                ;; No digit is fine when '=' padding completes the run to a multiple of 4.
                (if (i32.eq (local.get $kinds) (i32.const 3))
                  (then
                    (if (i32.eq (i32.load8_u (local.get $e)) (i32.const 61))
                      (then
                        (local.set $c (i32.add (i32.sub (local.get $first) (local.get $s))
                          (i32.add (i32.const 1) (i32.eq (i32.load8_u offset=1 (local.get $e)) (i32.const 61)))))
                        (if (i32.eqz (i32.and (local.get $c) (i32.const 3)))
                          (then (local.set $kinds (i32.const 7))))))))
                (if (i32.eq (local.get $kinds) (i32.const 7))
                  (then
                    (i32.store (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (local.get $s))
                    (i32.store offset=4 (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (local.get $first))
                    (local.set $nr (i32.add (local.get $nr) (i32.const 1)))))))))
        (local.set $last (select
          (i32.sub (i32.add (i32.add (local.get $base) (local.get $p)) (i32.const 31)) (i32.clz (local.get $nb)))
          (local.get $last)
          (local.get $nb)))

        ;; 4. '%' and '\'
        (local.set $pct (v128.or (local.get $pct) (i8x16.eq (local.get $b0) (v128.const i8x16 37 37 37 37 37 37 37 37 37 37 37 37 37 37 37 37))))
        (local.set $bsl (v128.or (local.get $bsl) (i8x16.eq (local.get $b0) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $block)))

    (if (v128.any_true (local.get $pct)) (then (local.set $flags (i32.or (local.get $flags) (i32.const 1)))))
    (if (v128.any_true (local.get $bsl)) (then (local.set $flags (i32.or (local.get $flags) (i32.const 2)))))
    (i32.store (i32.const 0) (local.get $nh))
    (i32.store (i32.const 4) (local.get $nr))
    (i32.store (i32.const 8) (local.get $flags))
    (i32.store (i32.const 12) (local.get $last)))
)
