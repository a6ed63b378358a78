;; The keyword scanner's inner loop (see ../keyword-scanner.ts), as WebAssembly with 128-bit SIMD.
;; Rebuild keyword-scan-wasm.ts with: node packages/core/src/secrets/wasm/build.mjs
;;
;; One call handles one chunk of a text, given as UTF-16 code units at $u16, in three passes (the
;; byte before $bytes holds the character before the chunk, narrowed the same way, or 0):
;;  1. narrow the code units to bytes ($bytes): ASCII stays, everything else becomes a byte no
;;     keyword and no base64 run contains (0 or 255), then 32 zero bytes of padding;
;;  2. per 16 bytes, with no branch: a Teddy filter (nibble shuffles over the first four
;;     characters of every keyword, in 24 buckets) marks the positions where a keyword may start;
;;     the base64-alphabet mask (two more nibble tables) finds where a run of base64 characters
;;     ends (a run of 15 or more must cross a 16-byte boundary, so only the first and last
;;     non-base64 byte of each block matter); '%', '\' and `D:` are noted. A block with a candidate or
;;     the end of a long run is appended to the records at $recs (16 bytes each);
;;  3. per record: a candidate whose first characters hash into the sets of keyword starts
;;     ($verify) walks the keyword trie, and each keyword the walk completes is a hit (trie state,
;;     end); a long run is checked byte by byte and reported, and the trie is walked from its
;;     first six characters for the run keywords: token prefixes that are not in the Teddy
;;     tables (trie states from $firstRunEmit on; Teddy walks report states from $firstEmit up to
;;     there, run walks from there on, so no keyword is reported twice).
;; Keeping pass 2 free of inner loops and branches matters: with the walks inside it, the
;; compiler spills the sixteen table vectors around them on every block.
;;
;; Memory header (i32): [0] hits, [4] runs, [8] flags (1 = '%', 2 = '\', 4 = hit buffer full,
;; 8 = a run keyword was found: hits are then not in order of start, 16 = `D:` occurs,
;; 32 = a character that may hide text occurs: one whose code unit the table at $hide marks, looked
;; up only in a chunk outside ASCII; 0 for $hide looks up none),
;; [12] absolute position of the last non-base64 character (carried from chunk to chunk),
;; [16] the placeholder shape bits profile (below) measured last.
;; Teddy tables at $teddy (see ../teddy-buckets.ts): per set of eight buckets, for the character
;; at offset j = 0, 1, 2, 3 of a keyword, 16 bytes indexed by the low
;; nibble then 16 by the high nibble (of the character with bit 0x20 set), each byte a set of
;; buckets (at offsets 2 and 3 the high-nibble tables accept everything and are not read); then the base64 class tables (low nibble, high nibble) at 384; then, at 416, the
;; byte constants 15, 32, 2, '%', '\', 'D' and ':' (16 of each): read from memory rather than written as
;; v128.const, which the compiler would rebuild from immediates at every use. At $verify, three
;; 512-byte bit sets of keyword starts: first four, three and two characters (bit 0x20 set, as
;; little-endian bytes of an i32), each at bit (x * 0x9E3779B1) >>> 20. Trie at $trie: u16 next
;; state per (state << 6 | class); 0 = no keyword continues. Records at $recs: block offset,
;; candidate mask (bits 0-15) and "a long run ends here" (bit 16), run start, run end.
(module
  (memory (export "memory") 1)
  (func (export "scan")
    (param $u16 i32) (param $n i32) (param $loaded i32) (param $base i32) (param $bytes i32)
    (param $cls i32) (param $teddy i32) (param $verify i32) (param $trie i32) (param $firstEmit i32)
    (param $hits i32) (param $hitCap i32) (param $runs i32) (param $minRun i32) (param $recs i32)
    (param $firstRunEmit i32) (param $firstGlueEmit i32) (param $hide i32)
    (local $i i32) (local $p i32) (local $k i32) (local $s i32) (local $m i32) (local $nb i32)
    (local $nh i32) (local $nr i32) (local $flags i32) (local $last i32) (local $first i32)
    (local $kinds i32) (local $c i32) (local $j i32) (local $e i32) (local $rec i32) (local $recEnd i32) (local $longRun i32)
    (local $w i32) (local $seps i32) (local $unders i32)
    (local $nhi0 v128) (local $loc v128) (local $hic v128)
    (local $b0 v128) (local $f v128) (local $cand v128)
    (local $pct v128) (local $bsl v128) (local $mark v128)
    (local $lo0 v128) (local $hi0 v128) (local $lo1 v128) (local $hi1 v128)
    (local $lo3 v128) (local $hi3 v128) (local $lo4 v128) (local $hi4 v128) (local $lo5 v128)
    (local $lo6 v128) (local $loA2 v128) (local $loA3 v128) (local $lo7 v128) (local $hi7 v128) (local $lo8 v128) (local $hi8 v128) (local $lo9 v128) (local $lo10 v128)
    (local $nlo v128) (local $nhi v128) (local $candB v128) (local $candC v128) (local $n2 v128) (local $n3 v128)
    (local $x15 v128) (local $x32 v128) (local $x2 v128) (local $xPct v128) (local $xBsl v128)
    (local $xD v128) (local $xColon v128) (local $ua v128) (local $ub v128) (local $wide v128)
    (local.set $lo0 (v128.load (local.get $teddy)))
    (local.set $hi0 (v128.load offset=16 (local.get $teddy)))
    (local.set $lo1 (v128.load offset=32 (local.get $teddy)))
    (local.set $hi1 (v128.load offset=48 (local.get $teddy)))
    (local.set $loA2 (v128.load offset=64 (local.get $teddy)))
    (local.set $loA3 (v128.load offset=96 (local.get $teddy)))
    (local.set $lo3 (v128.load offset=128 (local.get $teddy)))
    (local.set $hi3 (v128.load offset=144 (local.get $teddy)))
    (local.set $lo4 (v128.load offset=160 (local.get $teddy)))
    (local.set $hi4 (v128.load offset=176 (local.get $teddy)))
    (local.set $lo5 (v128.load offset=192 (local.get $teddy)))
    (local.set $lo6 (v128.load offset=224 (local.get $teddy)))
    (local.set $lo7 (v128.load offset=256 (local.get $teddy)))
    (local.set $hi7 (v128.load offset=272 (local.get $teddy)))
    (local.set $lo8 (v128.load offset=288 (local.get $teddy)))
    (local.set $hi8 (v128.load offset=304 (local.get $teddy)))
    (local.set $lo9 (v128.load offset=320 (local.get $teddy)))
    (local.set $lo10 (v128.load offset=352 (local.get $teddy)))
    (local.set $loc (v128.load offset=384 (local.get $teddy)))
    (local.set $hic (v128.load offset=400 (local.get $teddy)))
    (local.set $x15 (v128.load offset=416 (local.get $teddy)))
    (local.set $x32 (v128.load offset=432 (local.get $teddy)))
    (local.set $x2 (v128.load offset=448 (local.get $teddy)))
    (local.set $xPct (v128.load offset=464 (local.get $teddy)))
    (local.set $xBsl (v128.load offset=480 (local.get $teddy)))
    (local.set $xD (v128.load offset=496 (local.get $teddy)))
    (local.set $xColon (v128.load offset=512 (local.get $teddy)))
    (local.set $flags (i32.load (i32.const 8)))
    (local.set $last (i32.load (i32.const 12)))

    ;; 1. UTF-16 -> bytes. narrow_i16x8_u saturates: 0x100..0x7fff -> 255, 0x8000..0xffff -> 0.
    ;; The code units ORed together tell whether any lies above 0x7f (the 16 after the chunk,
    ;; which the last step reads, zeroed first: they are left over from an earlier text).
    (v128.store (i32.add (local.get $u16) (i32.shl (local.get $loaded) (i32.const 1))) (v128.const i32x4 0 0 0 0))
    (v128.store offset=16 (i32.add (local.get $u16) (i32.shl (local.get $loaded) (i32.const 1))) (v128.const i32x4 0 0 0 0))
    (block $narrowed
      (loop $narrow
        (br_if $narrowed (i32.ge_u (local.get $i) (local.get $loaded)))
        (local.set $ua (v128.load (i32.add (local.get $u16) (i32.shl (local.get $i) (i32.const 1)))))
        (local.set $ub (v128.load offset=16 (i32.add (local.get $u16) (i32.shl (local.get $i) (i32.const 1)))))
        (local.set $wide (v128.or (local.get $wide) (v128.or (local.get $ua) (local.get $ub))))
        (v128.store (i32.add (local.get $bytes) (local.get $i)) (i8x16.narrow_i16x8_u (local.get $ua) (local.get $ub)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $narrow)))
    ;; A chunk outside ASCII: its code units looked up one by one in the table at $hide (a byte
    ;; per code unit, 1 where a character may hide text), until one is found.
    (if (i32.and
          (i32.ne (local.get $hide) (i32.const 0))
          (i32.and (v128.any_true (v128.and (local.get $wide) (v128.const i16x8 0xff80 0xff80 0xff80 0xff80 0xff80 0xff80 0xff80 0xff80)))
                   (i32.eqz (i32.and (local.get $flags) (i32.const 32)))))
      (then
        (local.set $i (i32.const 0))
        (block $found
          (loop $look
            (br_if $found (i32.ge_u (local.get $i) (local.get $n)))
            (if (i32.load8_u (i32.add (local.get $hide) (i32.load16_u (i32.add (local.get $u16) (i32.shl (local.get $i) (i32.const 1))))))
              (then
                (local.set $flags (i32.or (local.get $flags) (i32.const 32)))
                (br $found)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $look)))))
    (v128.store (i32.add (local.get $bytes) (local.get $loaded)) (v128.const i32x4 0 0 0 0))
    (v128.store offset=16 (i32.add (local.get $bytes) (local.get $loaded)) (v128.const i32x4 0 0 0 0))

    ;; 2. Per 16 bytes, branch-free: candidates, the end of a long base64 run, '%' and '\'.
    ;; The high nibble is a 16-bit shift and a mask: i8x16.shr_u has no x64 instruction.
    (local.set $rec (local.get $recs))
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $p) (local.get $n)))
        (local.set $b0 (v128.load (i32.add (local.get $bytes) (local.get $p))))
        ;; bit 0x20 sets bit 1 of the high nibble and leaves the low nibble as it is
        (local.set $nlo (v128.and (local.get $b0) (local.get $x15)))
        (local.set $nhi0 (v128.and (i16x8.shr_u (local.get $b0) (i32.const 4)) (local.get $x15)))
        (local.set $nhi (v128.or (local.get $nhi0) (local.get $x2)))
        ;; base64 alphabet, by the same nibbles
        (local.set $nb (i8x16.bitmask (i8x16.eq
          (v128.and (i8x16.swizzle (local.get $loc) (local.get $nlo)) (i8x16.swizzle (local.get $hic) (local.get $nhi0)))
          (v128.const i32x4 0 0 0 0))))
        ;; Teddy: buckets whose keywords' first characters may sit at p+k, p+k+1, ... (three table
        ;; sets of eight buckets, $cand, $candB and $candC, over four characters)
        (local.set $cand (v128.and (i8x16.swizzle (local.get $lo0) (local.get $nlo)) (i8x16.swizzle (local.get $hi0) (local.get $nhi))))
        (local.set $candB (v128.and (i8x16.swizzle (local.get $lo3) (local.get $nlo)) (i8x16.swizzle (local.get $hi3) (local.get $nhi))))
        (local.set $candC (v128.and (i8x16.swizzle (local.get $lo7) (local.get $nlo)) (i8x16.swizzle (local.get $hi7) (local.get $nhi))))
        (local.set $f (v128.or (v128.load offset=1 (i32.add (local.get $bytes) (local.get $p))) (local.get $x32)))
        (local.set $nlo (v128.and (local.get $f) (local.get $x15)))
        (local.set $nhi (v128.and (i16x8.shr_u (local.get $f) (i32.const 4)) (local.get $x15)))
        (local.set $cand (v128.and (local.get $cand)
          (v128.and (i8x16.swizzle (local.get $lo1) (local.get $nlo)) (i8x16.swizzle (local.get $hi1) (local.get $nhi)))))
        (local.set $candB (v128.and (local.get $candB)
          (v128.and (i8x16.swizzle (local.get $lo4) (local.get $nlo)) (i8x16.swizzle (local.get $hi4) (local.get $nhi)))))
        (local.set $candC (v128.and (local.get $candC)
          (v128.and (i8x16.swizzle (local.get $lo8) (local.get $nlo)) (i8x16.swizzle (local.get $hi8) (local.get $nhi)))))
        ;; the third and fourth characters by their low nibble only (the case fold leaves it as is)
        (local.set $n2 (v128.and (v128.load offset=2 (i32.add (local.get $bytes) (local.get $p))) (local.get $x15)))
        (local.set $n3 (v128.and (v128.load offset=3 (i32.add (local.get $bytes) (local.get $p))) (local.get $x15)))
        (local.set $candB (v128.and (local.get $candB)
          (v128.and (i8x16.swizzle (local.get $lo5) (local.get $n2)) (i8x16.swizzle (local.get $lo6) (local.get $n3)))))
        (local.set $candC (v128.and (local.get $candC)
          (v128.and (i8x16.swizzle (local.get $lo9) (local.get $n2)) (i8x16.swizzle (local.get $lo10) (local.get $n3)))))
        (local.set $cand (v128.and (local.get $cand)
          (v128.and (i8x16.swizzle (local.get $loA2) (local.get $n2)) (i8x16.swizzle (local.get $loA3) (local.get $n3)))))
        (local.set $cand (v128.or (local.get $cand) (v128.or (local.get $candB) (local.get $candC))))
        ;; candidate starts (pass 3 drops those past the chunk's end)
        (local.set $m (i32.xor (i8x16.bitmask (i8x16.eq (local.get $cand) (v128.const i32x4 0 0 0 0))) (i32.const 0xffff)))
        ;; A run of base64 characters longer than minRun ends at the block's first non-base64
        ;; byte. ctz(0) = 32, so a block of base64 characters only (common in code) needs no
        ;; branch: the run test fails and last stays.
        (local.set $first (i32.add (i32.add (local.get $base) (local.get $p)) (i32.ctz (local.get $nb))))
        (local.set $longRun (i32.and (i32.ne (local.get $nb) (i32.const 0))
          (i32.gt_s (i32.sub (local.get $first) (local.get $last)) (local.get $minRun))))
        ;; Append the block (the slot is always written; it is kept only when it has something).
        (i32.store (local.get $rec) (local.get $p))
        (i32.store offset=4 (local.get $rec) (i32.or (local.get $m) (i32.shl (local.get $longRun) (i32.const 16))))
        (i32.store offset=8 (local.get $rec) (i32.add (local.get $last) (i32.const 1)))
        (i32.store offset=12 (local.get $rec) (local.get $first))
        (local.set $rec (i32.add (local.get $rec)
          (i32.shl (i32.or (i32.ne (local.get $m) (i32.const 0)) (local.get $longRun)) (i32.const 4))))
        (local.set $last (select
          (i32.sub (i32.add (i32.add (local.get $base) (local.get $p)) (i32.const 31)) (i32.clz (local.get $nb)))
          (local.get $last)
          (local.get $nb)))
        (local.set $pct (v128.or (local.get $pct) (i8x16.eq (local.get $b0) (local.get $xPct))))
        (local.set $bsl (v128.or (local.get $bsl) (i8x16.eq (local.get $b0) (local.get $xBsl))))
        ;; `D:`, the end of `[REDACTED:` (a redaction marker may follow; the caller looks)
        (local.set $mark (v128.or (local.get $mark)
          (v128.and (i8x16.eq (local.get $b0) (local.get $xD)) (i8x16.eq (local.get $f) (local.get $xColon)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $block)))

    ;; 3. The recorded blocks, in order.
    (local.set $recEnd (local.get $rec))
    (local.set $rec (local.get $recs))
    (block $recordsDone
      (loop $records
        (br_if $recordsDone (i32.ge_u (local.get $rec) (local.get $recEnd)))
        (local.set $p (i32.load (local.get $rec)))
        (local.set $m (i32.load16_u offset=4 (local.get $rec)))
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
                    (if (i32.and (i32.ge_u (local.get $s) (local.get $firstEmit)) (i32.lt_u (local.get $s) (local.get $firstRunEmit)))
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

        ;; A long base64 run ends in this block: it is reported when it also holds lowercase,
        ;; uppercase and digits (or '=' padding instead of digits) and starts with A-Z or a-f
        ;; (checked here, rarely: most runs are identifiers that start with g-z). A run that
        ;; began in an earlier chunk is reported with start -(s+1), for the caller to check.
        (if (i32.load16_u offset=6 (local.get $rec))
          (then
            (local.set $s (i32.load offset=8 (local.get $rec)))
            (local.set $first (i32.load offset=12 (local.get $rec)))
            (if (i32.lt_s (local.get $s) (local.get $base))
              (then
                (i32.store (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (i32.sub (i32.const -1) (local.get $s)))
                (i32.store offset=4 (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (local.get $first))
                (local.set $nr (i32.add (local.get $nr) (i32.const 1))))
              (else
                ;; The run's kinds of characters (small letters, capitals, digits: bits 0-2) and
                ;; whether it holds - / or + and _, 16 characters at a time (the padding keeps the reads
                ;; in bounds; lanes past the run's end are masked off), for the run keywords and
                ;; for the decoding below.
                (local.set $j (i32.add (local.get $bytes) (i32.sub (local.get $s) (local.get $base))))
                (local.set $k (i32.add (local.get $bytes) (i32.sub (local.get $first) (local.get $base))))
                (local.set $kinds (i32.const 0))
                (local.set $seps (i32.const 0))
                (local.set $unders (i32.const 0))
                (block $kindsDone
                  (loop $kindsLoop
                    (br_if $kindsDone (i32.ge_u (local.get $j) (local.get $k)))
                    (local.set $f (v128.load (local.get $j)))
                    (local.set $e (i32.sub (local.get $k) (local.get $j)))
                    (local.set $c (select (i32.sub (i32.shl (i32.const 1) (local.get $e)) (i32.const 1))
                                          (i32.const 0xffff)
                                          (i32.lt_u (local.get $e) (i32.const 16))))
                    (local.set $kinds (i32.or (local.get $kinds)
                      (i32.or
                        (i32.ne (i32.and (local.get $c) (i8x16.bitmask (i8x16.lt_u
                          (i8x16.sub (local.get $f) (v128.const i8x16 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97))
                          (v128.const i8x16 26 26 26 26 26 26 26 26 26 26 26 26 26 26 26 26)))) (i32.const 0))
                        (i32.or
                          (i32.shl (i32.ne (i32.and (local.get $c) (i8x16.bitmask (i8x16.lt_u
                            (i8x16.sub (local.get $f) (v128.const i8x16 65 65 65 65 65 65 65 65 65 65 65 65 65 65 65 65))
                            (v128.const i8x16 26 26 26 26 26 26 26 26 26 26 26 26 26 26 26 26)))) (i32.const 0)) (i32.const 1))
                          (i32.shl (i32.ne (i32.and (local.get $c) (i8x16.bitmask (i8x16.lt_u
                            (i8x16.sub (local.get $f) (v128.const i8x16 48 48 48 48 48 48 48 48 48 48 48 48 48 48 48 48))
                            (v128.const i8x16 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10)))) (i32.const 0)) (i32.const 2))))))
                    (local.set $seps (i32.or (local.get $seps) (i32.and (local.get $c) (i8x16.bitmask (v128.or
                      (v128.or (i8x16.eq (local.get $f) (v128.const i8x16 45 45 45 45 45 45 45 45 45 45 45 45 45 45 45 45))
                               (i8x16.eq (local.get $f) (v128.const i8x16 47 47 47 47 47 47 47 47 47 47 47 47 47 47 47 47)))
                      (i8x16.eq (local.get $f) (v128.const i8x16 43 43 43 43 43 43 43 43 43 43 43 43 43 43 43 43)))))))
                    (local.set $unders (i32.or (local.get $unders) (i32.and (local.get $c) (i8x16.bitmask
                      (i8x16.eq (local.get $f) (v128.const i8x16 95 95 95 95 95 95 95 95 95 95 95 95 95 95 95 95))))))
                    ;; (a run of all three kinds with a _ is walked at every position: its separators no longer matter)
                    (br_if $kindsDone (i32.and (i32.eq (local.get $kinds) (i32.const 7)) (i32.ne (local.get $unders) (i32.const 0))))
                    (local.set $j (i32.add (local.get $j) (i32.const 16)))
                    (br $kindsLoop)))
                ;; Run keywords: see $runWalk (a function of its own, so that its locals do not
                ;; weigh on the registers of the loops here).
                ;; Most long runs are identifiers: the call is made only when the run's first two
                ;; characters start a run keyword (a bit set of them at $verify + 3072, by the same
                ;; hash), when the run starts with + / _ or -, when a backslash comes before it,
                ;; when it holds - / or + (a token may begin after one), or when it holds all three
                ;; kinds of characters and a _ (a random token glued to a word: glue keywords hold a _).
                (local.set $j (i32.add (local.get $bytes) (i32.sub (local.get $s) (local.get $base))))
                (local.set $c (i32.load8_u (local.get $j)))
                (local.set $k (i32.mul (i32.or (i32.load16_u (local.get $j)) (i32.const 0x2020)) (i32.const 0x9E3779B1)))
                (if (i32.or
                      (i32.or (local.get $seps) (i32.and (i32.eq (local.get $kinds) (i32.const 7)) (i32.ne (local.get $unders) (i32.const 0))))
                      (i32.or
                        (i32.and (i32.const 1)
                          (i32.shr_u (i32.load8_u offset=3072 (i32.add (local.get $verify) (i32.shr_u (local.get $k) (i32.const 23))))
                                     (i32.and (i32.shr_u (local.get $k) (i32.const 20)) (i32.const 7))))
                        (i32.or
                          (i32.or (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 47)))
                                  (i32.or (i32.eq (local.get $c) (i32.const 95)) (i32.eq (local.get $c) (i32.const 45))))
                          (i32.eq (i32.load8_u (i32.sub (local.get $j) (i32.const 1))) (i32.const 92)))))
                  (then
                    (local.set $w (call $runWalk (local.get $bytes) (i32.sub (local.get $s) (local.get $base))
                      (i32.sub (local.get $first) (local.get $base)) (local.get $base) (local.get $cls) (local.get $verify)
                      (local.get $trie) (local.get $firstRunEmit) (local.get $hits) (local.get $nh) (local.get $hitCap)
                      (i32.and (i32.eq (local.get $kinds) (i32.const 7)) (i32.ne (local.get $unders) (i32.const 0))) (local.get $firstGlueEmit)))
                    (local.set $nh (i32.and (local.get $w) (i32.const 0xffffff)))
                    (local.set $flags (i32.or (local.get $flags) (i32.shr_u (local.get $w) (i32.const 24))))))
                ;; Decoding looks only at runs that start with A-Z or a-f (the top six bits of an
                ;; ASCII byte), and at runs of digits that start with 0-7, which may be hex of
                ;; text (every byte's high digit 0-7): reported for the caller to check
                ;; (couldBeHexOfText).
                (local.set $k (i32.add (local.get $bytes) (i32.sub (local.get $first) (local.get $base))))
                (if (i32.eqz (i32.or (i32.lt_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 26))
                                     (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 6))))
                  (then (local.set $kinds (select (i32.const 7) (i32.const 0)
                    (i32.and (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 8))
                             (i32.ne (i32.and (local.get $kinds) (i32.const 4)) (i32.const 0)))))))
                ;; No digit is fine when '=' padding completes the run to a multiple of 4.
                (if (i32.eq (local.get $kinds) (i32.const 3))
                  (then
                    (if (i32.eq (i32.load8_u (local.get $k)) (i32.const 61))
                      (then
                        (local.set $c (i32.add (i32.sub (local.get $first) (local.get $s))
                          (i32.add (i32.const 1) (i32.eq (i32.load8_u offset=1 (local.get $k)) (i32.const 61)))))
                        (if (i32.eqz (i32.and (local.get $c) (i32.const 3)))
                          (then (local.set $kinds (i32.const 7))))))))
                (if (i32.eq (local.get $kinds) (i32.const 7))
                  (then
                    (i32.store (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (local.get $s))
                    (i32.store offset=4 (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 3))) (local.get $first))
                    (local.set $nr (i32.add (local.get $nr) (i32.const 1)))))))))
        (local.set $rec (i32.add (local.get $rec) (i32.const 16)))
        (br $records)))

    (if (v128.any_true (local.get $pct)) (then (local.set $flags (i32.or (local.get $flags) (i32.const 1)))))
    (if (v128.any_true (local.get $bsl)) (then (local.set $flags (i32.or (local.get $flags) (i32.const 2)))))
    (if (v128.any_true (local.get $mark)) (then (local.set $flags (i32.or (local.get $flags) (i32.const 16)))))
    (i32.store (i32.const 0) (local.get $nh))
    (i32.store (i32.const 4) (local.get $nr))
    (i32.store (i32.const 8) (local.get $flags))
    (i32.store (i32.const 12) (local.get $last)))

  ;; Run keywords (token prefixes, kept out of the Teddy tables) are looked for in a long run,
  ;; [$start, $end) of the chunk's bytes, at its first letter or digit when at most five of
  ;; + / _ - come before it (a token after // or -), and, when a backslash comes before the run,
  ;; the same way from its second and from its sixth character (after the letter of an escape
  ;; glued to the token, \n or \u000a); then after each - / or + inside it (see
  ;; runKeywordPositions in ../keyword-scanner.ts); and, when $everywhere (the run holds small
  ;; letters, capitals, digits and a _), the glue keywords (trie states from $firstGlueEmit on) at every
  ;; other position (glueKeywordPositions). Returns the hit count, plus 8 << 24 when
  ;; there was a hit and 4 << 24 when the buffer is full.
  (func $runWalk (param $bytes i32) (param $start i32) (param $end i32) (param $base i32) (param $cls i32)
    (param $verify i32) (param $trie i32) (param $firstRunEmit i32) (param $hits i32) (param $nh i32) (param $hitCap i32)
    (param $everywhere i32) (param $firstGlueEmit i32)
    (result i32)
;; (each position once: the JS definition lists positions, not walks)
    (local $r i32) (local $lead i32) (local $lead1 i32) (local $lead5 i32) (local $p i32) (local $c i32) (local $h i32)
    (local $j i32) (local $m i32) (local $f v128)
    (local.set $lead (call $skipLead (local.get $bytes) (local.get $start)))
    (local.set $lead1 (local.get $lead))
    (local.set $lead5 (local.get $lead))
    (if (i32.eq (i32.load8_u (i32.sub (i32.add (local.get $bytes) (local.get $start)) (i32.const 1))) (i32.const 92))
      (then
        (local.set $lead1 (call $skipLead (local.get $bytes) (i32.add (local.get $start) (i32.const 1))))
        (local.set $lead5 (call $skipLead (local.get $bytes) (i32.add (local.get $start) (i32.const 5))))))
    (local.set $r (call $runWalkAt (local.get $bytes) (local.get $lead) (local.get $end) (local.get $base) (local.get $cls)
      (local.get $verify) (local.get $trie) (local.get $firstRunEmit) (local.get $hits) (local.get $nh) (local.get $hitCap)))
    (if (i32.ne (local.get $lead1) (local.get $lead))
      (then
        (local.set $r (i32.or (i32.and (local.get $r) (i32.const 0xff000000))
          (call $runWalkAt (local.get $bytes) (local.get $lead1) (local.get $end) (local.get $base) (local.get $cls)
            (local.get $verify) (local.get $trie) (local.get $firstRunEmit) (local.get $hits)
            (i32.and (local.get $r) (i32.const 0xffffff)) (local.get $hitCap))))))
    (if (i32.and (i32.ne (local.get $lead5) (local.get $lead)) (i32.ne (local.get $lead5) (local.get $lead1)))
      (then
        (local.set $r (i32.or (i32.and (local.get $r) (i32.const 0xff000000))
          (call $runWalkAt (local.get $bytes) (local.get $lead5) (local.get $end) (local.get $base) (local.get $cls)
            (local.get $verify) (local.get $trie) (local.get $firstRunEmit) (local.get $hits)
            (i32.and (local.get $r) (i32.const 0xffffff)) (local.get $hitCap))))))
    (if (local.get $everywhere)
      (then
        ;; A run of all three kinds: every position, after a separator for every run keyword,
        ;; elsewhere for the glue keywords, whose first four characters hash into their own set
        ;; ($verify + 3584): one test per position, inline.
        (local.set $p (i32.add (local.get $start) (i32.const 1)))
        (block $done
          (loop $positions
            (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
            (if (i32.eqz (i32.or (i32.eq (local.get $p) (local.get $lead))
                                 (i32.or (i32.eq (local.get $p) (local.get $lead1)) (i32.eq (local.get $p) (local.get $lead5)))))
              (then
                (local.set $c (i32.load8_u (i32.sub (i32.add (local.get $bytes) (local.get $p)) (i32.const 1))))
                (if (i32.or (i32.eq (local.get $c) (i32.const 45))
                            (i32.or (i32.eq (local.get $c) (i32.const 47)) (i32.eq (local.get $c) (i32.const 43))))
                  (then
                    (local.set $r (i32.or (i32.and (local.get $r) (i32.const 0xff000000))
                      (call $runWalkAt (local.get $bytes) (local.get $p) (local.get $end) (local.get $base) (local.get $cls)
                        (local.get $verify) (local.get $trie) (local.get $firstRunEmit) (local.get $hits)
                        (i32.and (local.get $r) (i32.const 0xffffff)) (local.get $hitCap)))))
                  (else
                    (local.set $h (i32.mul (i32.or (i32.load (i32.add (local.get $bytes) (local.get $p))) (i32.const 0x20202020))
                                           (i32.const 0x9E3779B1)))
                    (if (i32.and (i32.const 1)
                          (i32.shr_u (i32.load8_u offset=3584 (i32.add (local.get $verify) (i32.shr_u (local.get $h) (i32.const 23))))
                                     (i32.and (i32.shr_u (local.get $h) (i32.const 20)) (i32.const 7))))
                      (then
                        (local.set $r (i32.or (i32.and (local.get $r) (i32.const 0xff000000))
                          (call $runWalkAt (local.get $bytes) (local.get $p) (local.get $end) (local.get $base) (local.get $cls)
                            (local.get $verify) (local.get $trie) (local.get $firstGlueEmit) (local.get $hits)
                            (i32.and (local.get $r) (i32.const 0xffffff)) (local.get $hitCap))))))))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $positions))))
      (else
        ;; Otherwise only after a separator: found 16 characters at a time (the padding keeps the
        ;; reads in bounds; a separator in the run's last character has no position after it).
        (local.set $j (local.get $start))
        (block $done
          (loop $blocks
            (br_if $done (i32.ge_u (local.get $j) (local.get $end)))
            (local.set $f (v128.load (i32.add (local.get $bytes) (local.get $j))))
            (local.set $m (i8x16.bitmask (v128.or
              (v128.or (i8x16.eq (local.get $f) (v128.const i8x16 45 45 45 45 45 45 45 45 45 45 45 45 45 45 45 45))
                       (i8x16.eq (local.get $f) (v128.const i8x16 47 47 47 47 47 47 47 47 47 47 47 47 47 47 47 47)))
              (i8x16.eq (local.get $f) (v128.const i8x16 43 43 43 43 43 43 43 43 43 43 43 43 43 43 43 43)))))
            (block $noMore
              (loop $separators
                (br_if $noMore (i32.eqz (local.get $m)))
                (local.set $p (i32.add (i32.add (local.get $j) (i32.ctz (local.get $m))) (i32.const 1)))
                (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
                (br_if $noMore (i32.ge_u (local.get $p) (local.get $end)))
                (if (i32.eqz (i32.or (i32.eq (local.get $p) (local.get $lead))
                                     (i32.or (i32.eq (local.get $p) (local.get $lead1)) (i32.eq (local.get $p) (local.get $lead5)))))
                  (then
                    (local.set $r (i32.or (i32.and (local.get $r) (i32.const 0xff000000))
                      (call $runWalkAt (local.get $bytes) (local.get $p) (local.get $end) (local.get $base) (local.get $cls)
                        (local.get $verify) (local.get $trie) (local.get $firstRunEmit) (local.get $hits)
                        (i32.and (local.get $r) (i32.const 0xffffff)) (local.get $hitCap))))))
                (br $separators)))
            (local.set $j (i32.add (local.get $j) (i32.const 16)))
            (br $blocks)))))
    (local.get $r))

  ;; The first position from $p on, at most five further, that holds none of + / _ -.
  (func $skipLead (param $bytes i32) (param $p i32) (result i32)
    (local $c i32) (local $stop i32)
    (local.set $stop (i32.add (local.get $p) (i32.const 5)))
    (block $found
      (loop $skip
        (br_if $found (i32.ge_u (local.get $p) (local.get $stop)))
        (local.set $c (i32.load8_u (i32.add (local.get $bytes) (local.get $p))))
        (br_if $found (i32.eqz (i32.or (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 47)))
                                       (i32.or (i32.eq (local.get $c) (i32.const 95)) (i32.eq (local.get $c) (i32.const 45))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $skip)))
    (local.get $p))

  ;; One position of $runWalk: when the first characters at $w hash into the run keywords' start
  ;; sets ($verify + 1536), the trie is walked and every run keyword it completes is a hit (state,
  ;; absolute end). Returns the hit count and flags as $runWalk does.
  (func $runWalkAt (param $bytes i32) (param $w i32) (param $end i32) (param $base i32) (param $cls i32)
    (param $verify i32) (param $trie i32) (param $firstRunEmit i32) (param $hits i32) (param $nh i32) (param $hitCap i32)
    (result i32)
    (local $ws i32) (local $c i32) (local $e i32) (local $j i32) (local $k i32) (local $flags i32)
    (if (i32.ge_u (local.get $w) (local.get $end)) (then (return (local.get $nh))))
    (local.set $c (i32.or (i32.load (i32.add (local.get $bytes) (local.get $w))) (i32.const 0x20202020)))
    (local.set $e (i32.mul (local.get $c) (i32.const 0x9E3779B1)))
    (local.set $j (i32.mul (i32.and (local.get $c) (i32.const 0xffffff)) (i32.const 0x9E3779B1)))
    (local.set $k (i32.mul (i32.and (local.get $c) (i32.const 0xffff)) (i32.const 0x9E3779B1)))
    (if (i32.eqz (i32.and (i32.const 1) (i32.or (i32.or
          (i32.shr_u (i32.load8_u offset=1536 (i32.add (local.get $verify) (i32.shr_u (local.get $e) (i32.const 23))))
                     (i32.and (i32.shr_u (local.get $e) (i32.const 20)) (i32.const 7)))
          (i32.shr_u (i32.load8_u offset=2048 (i32.add (local.get $verify) (i32.shr_u (local.get $j) (i32.const 23))))
                     (i32.and (i32.shr_u (local.get $j) (i32.const 20)) (i32.const 7))))
          (i32.shr_u (i32.load8_u offset=2560 (i32.add (local.get $verify) (i32.shr_u (local.get $k) (i32.const 23))))
                     (i32.and (i32.shr_u (local.get $k) (i32.const 20)) (i32.const 7))))))
      (then (return (local.get $nh))))
    (block $dead
      (loop $walk
        (local.set $ws
          (i32.load16_u
            (i32.add (local.get $trie)
              (i32.shl
                (i32.or (i32.shl (local.get $ws) (i32.const 6))
                        (i32.load8_u (i32.add (local.get $cls) (i32.load8_u (i32.add (local.get $bytes) (local.get $w))))))
                (i32.const 1)))))
        (br_if $dead (i32.eqz (local.get $ws)))
        (if (i32.ge_u (local.get $ws) (local.get $firstRunEmit))
          (then
            (local.set $flags (i32.or (local.get $flags) (i32.const 8)))
            (if (i32.lt_u (local.get $nh) (local.get $hitCap))
              (then
                (i32.store (i32.add (local.get $hits) (i32.shl (local.get $nh) (i32.const 3))) (local.get $ws))
                (i32.store offset=4 (i32.add (local.get $hits) (i32.shl (local.get $nh) (i32.const 3)))
                  (i32.add (local.get $base) (local.get $w)))
                (local.set $nh (i32.add (local.get $nh) (i32.const 1))))
              (else (local.set $flags (i32.or (local.get $flags) (i32.const 4)))))))
        (local.set $w (i32.add (local.get $w) (i32.const 1)))
        (br $walk)))
    (i32.or (local.get $nh) (i32.shl (local.get $flags) (i32.const 24))))

  ;; The character profile of bytes [$ptr, $ptr + $len) that the detector's value filters need
  ;; (see ../value-filters.ts), from the bytes a scan left in memory: returns sum(k log2 k) over
  ;; the counts k of each byte (the entropy is log2(len) - sum / len) and stores at [16] the
  ;; placeholder shape bits (1: the same character six times in a row, line breaks aside; 2: seven
  ;; characters in ascending code order; 4: a placeholder mark character, or four x in a row).
  ;; Returns -1 when a byte is 0 or 255: a character outside Latin-1 narrowed to one of those, and
  ;; the counts would not be exact. At $counts: 256 i32 counts (zero between calls), 256 bytes of
  ;; distinct characters, the 256-byte mark table; at $klogk: k log2 k as f64 for k <= $len.
  (func (export "profile") (param $ptr i32) (param $len i32) (param $counts i32) (param $klogk i32) (result f64)
    (local $i i32) (local $c i32) (local $prev i32) (local $nd i32) (local $at i32) (local $k i32)
    (local $shape i32) (local $run i32) (local $up i32) (local $xs i32) (local $sum f64)
    (local.set $prev (i32.const -2))
    (local.set $run (i32.const 1))
    (local.set $up (i32.const 1))
    (block $done
      (loop $chars
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $c (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
        (if (i32.or (i32.eqz (local.get $c)) (i32.eq (local.get $c) (i32.const 255)))
          (then (local.set $shape (i32.or (local.get $shape) (i32.const 8))) (br $done)))
        (local.set $at (i32.add (local.get $counts) (i32.shl (local.get $c) (i32.const 2))))
        (local.set $k (i32.load (local.get $at)))
        ;; (branch-free: the slot after the distinct ones is always written, and kept for a new byte;
        ;; at most 254 are kept, as 0 and 255 end the pass, so the write stays in its 256 bytes)
        (i32.store8 offset=1024 (i32.add (local.get $counts) (local.get $nd)) (local.get $c))
        (local.set $nd (i32.add (local.get $nd) (i32.eqz (local.get $k))))
        (i32.store (local.get $at) (i32.add (local.get $k) (i32.const 1)))
        ;; placeholder shape
        (local.set $shape (i32.or (local.get $shape)
          (i32.shl (i32.load8_u offset=1280 (i32.add (local.get $counts) (local.get $c))) (i32.const 2))))
        (local.set $xs (select (i32.add (local.get $xs) (i32.const 1)) (i32.const 0)
          (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 120))))
        (local.set $shape (i32.or (local.get $shape) (i32.shl (i32.ge_u (local.get $xs) (i32.const 4)) (i32.const 2))))
        (local.set $run (select (i32.add (local.get $run) (i32.const 1)) (i32.const 1)
          (i32.and (i32.eq (local.get $c) (local.get $prev))
                   (i32.and (i32.ne (local.get $c) (i32.const 10)) (i32.ne (local.get $c) (i32.const 13))))))
        (local.set $shape (i32.or (local.get $shape) (i32.ge_u (local.get $run) (i32.const 6))))
        (local.set $up (select (i32.add (local.get $up) (i32.const 1)) (i32.const 1)
          (i32.eq (local.get $c) (i32.add (local.get $prev) (i32.const 1)))))
        (local.set $shape (i32.or (local.get $shape) (i32.shl (i32.eq (local.get $up) (i32.const 7)) (i32.const 1))))
        (local.set $prev (local.get $c))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $chars)))
    ;; sum over the distinct bytes, clearing their counts for the next call
    (local.set $i (i32.const 0))
    (block $summed
      (loop $distinct
        (br_if $summed (i32.ge_u (local.get $i) (local.get $nd)))
        (local.set $at (i32.add (local.get $counts)
          (i32.shl (i32.load8_u offset=1024 (i32.add (local.get $counts) (local.get $i))) (i32.const 2))))
        (local.set $sum (f64.add (local.get $sum)
          (f64.load (i32.add (local.get $klogk) (i32.shl (i32.load (local.get $at)) (i32.const 3))))))
        (i32.store (local.get $at) (i32.const 0))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $distinct)))
    (i32.store (i32.const 16) (local.get $shape))
    (select (f64.const -1) (local.get $sum) (i32.and (local.get $shape) (i32.const 8))))
)
