;; spoolforge's WebAssembly SIMD kernels. `npm run build` compiles this file with wabt's
;; wat2wasm (the `wabt` devDependency, SIMD enabled) and inlines the module into the bundles;
;; src/spool/simd-kernels.ts instantiates it and lays out its memory. Edit here, rebuild.
;;
;; Both kernels work on bytes in this module's memory, where a scan's reads land
;; (`countableBuffer`), so a chunk is counted and searched without a copy.
(module
  (memory (export "memory") 3)

  ;; Where the last `search` call stopped: the next position to search from.
  (global $resume (export "resume") (mut i32) (i32.const 0))

  ;; Counts `\n` in [start, end), whole 64-byte groups only: the caller counts the rest.
  (func (export "count") (param $start i32) (param $end i32) (result i32)
    (local $newlines v128) (local $total i32)
    (local.set $newlines (i8x16.splat (i32.const 10)))
    (local.set $end
      (i32.sub (local.get $end) (i32.and (i32.sub (local.get $end) (local.get $start)) (i32.const 63))))
    (block $done
      (loop $group
        (br_if $done (i32.ge_u (local.get $start) (local.get $end)))
        (local.set $total (i32.add (local.get $total) (i32.add
          (i32.add
            (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=0 (local.get $start)) (local.get $newlines))))
            (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $start)) (local.get $newlines)))))
          (i32.add
            (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=32 (local.get $start)) (local.get $newlines))))
            (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=48 (local.get $start)) (local.get $newlines))))))))
        (local.set $start (i32.add (local.get $start) (i32.const 64)))
        (br $group)))
    (local.get $total))

  ;; The first `\n` in [from, end), or `end`.
  (func $lineEnd (param $from i32) (param $end i32) (result i32)
    (local $mask i32)
    (block $scalar
      (loop $lanes
        (br_if $scalar (i32.gt_s (i32.add (local.get $from) (i32.const 16)) (local.get $end)))
        (local.set $mask (i8x16.bitmask
          (i8x16.eq (v128.load (local.get $from)) (i8x16.splat (i32.const 10)))))
        (if (local.get $mask)
          (then (return (i32.add (local.get $from) (i32.ctz (local.get $mask))))))
        (local.set $from (i32.add (local.get $from) (i32.const 16)))
        (br $lanes)))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $from) (local.get $end)))
        (br_if $done (i32.eq (i32.load8_u (local.get $from)) (i32.const 10)))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $bytes)))
    (local.get $from))

  ;; The start of the line holding `at`: just past the last `\n` in [start, at), or `start`.
  (func $lineStart (param $start i32) (param $at i32) (result i32)
    (local $mask i32)
    (block $scalar
      (loop $lanes
        (br_if $scalar (i32.lt_s (i32.sub (local.get $at) (i32.const 16)) (local.get $start)))
        (local.set $mask (i8x16.bitmask
          (i8x16.eq (v128.load offset=0 (i32.sub (local.get $at) (i32.const 16))) (i8x16.splat (i32.const 10)))))
        (if (local.get $mask)
          ;; the highest set bit is the last `\n`: at - 16 + (31 - clz), and the line starts after it
          (then (return (i32.sub (i32.add (local.get $at) (i32.const 16)) (i32.clz (local.get $mask))))))
        (local.set $at (i32.sub (local.get $at) (i32.const 16)))
        (br $lanes)))
    (block $done
      (loop $bytes
        (br_if $done (i32.le_u (local.get $at) (local.get $start)))
        (br_if $done (i32.eq (i32.load8_u (i32.sub (local.get $at) (i32.const 1))) (i32.const 10)))
        (local.set $at (i32.sub (local.get $at) (i32.const 1)))
        (br $bytes)))
    (local.get $at))

  ;; Copies [from, to) to `dst` 16 bytes at a time (up to 15 bytes past both are read or
  ;; written: the memory goes on past every block, and `dst` is written in order), then a `\n`
  ;; where the bytes end without one; returns where the copy ends.
  (func $copyLine (param $dst i32) (param $from i32) (param $to i32) (result i32)
    (local $at i32) (local $length i32)
    (local.set $length (i32.sub (local.get $to) (local.get $from)))
    (if (i32.le_s (local.get $length) (i32.const 0)) (then (return (local.get $dst))))
    (block $copied
      (loop $lanes
        (br_if $copied (i32.ge_u (local.get $at) (local.get $length)))
        (v128.store (i32.add (local.get $dst) (local.get $at))
          (v128.load (i32.add (local.get $from) (local.get $at))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $lanes)))
    (local.set $dst (i32.add (local.get $dst) (local.get $length)))
    (if (i32.ne (i32.load8_u (i32.sub (local.get $to) (i32.const 1))) (i32.const 10))
      (then
        (i32.store8 (local.get $dst) (i32.const 10))
        (local.set $dst (i32.add (local.get $dst) (i32.const 1)))))
    (local.get $dst))

  ;; The text grep prints of a block's lines [from, end), given the starts of its matching
  ;; lines (`count` ascending addresses at `starts`, from `from` on): the matching lines
  ;; (`invert` 0) or the lines between them (`invert` 1), each with its `\n` (added to a last
  ;; line without one), copied to `dst` in order. With `invert` and `tail` 1 (the last starts of
  ;; a block), the lines after the last matching one too. Returns where the copy ends; $resume:
  ;; just past the last matching line, the `from` of a next call on the same block.
  (func (export "select")
    (param $starts i32) (param $count i32) (param $from i32) (param $end i32)
    (param $invert i32) (param $tail i32) (param $dst i32) (result i32)
    (local $line i32) (local $next i32) (local $stop i32)
    (local.set $stop (i32.add (local.get $starts) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $starts) (local.get $stop)))
        (local.set $line (i32.load (local.get $starts)))
        (local.set $next (i32.add (call $lineEnd (local.get $line) (local.get $end)) (i32.const 1)))
        (if (i32.gt_u (local.get $next) (local.get $end)) (then (local.set $next (local.get $end))))
        (local.set $dst (if (result i32) (local.get $invert)
          (then (call $copyLine (local.get $dst) (local.get $from) (local.get $line)))
          (else (call $copyLine (local.get $dst) (local.get $line) (local.get $next)))))
        (local.set $from (local.get $next))
        (local.set $starts (i32.add (local.get $starts) (i32.const 4)))
        (br $lines)))
    (if (i32.and (local.get $invert) (local.get $tail))
      (then (local.set $dst (call $copyLine (local.get $dst) (local.get $from) (local.get $end)))))
    (global.set $resume (local.get $from))
    (local.get $dst))

  ;; 0x20 where `fold` is set and `byte` is a lower-case ASCII letter, else 0: OR-ed into a
  ;; byte of the text, it makes an upper-case letter lower-case and changes nothing else that
  ;; could then equal `byte`.
  (func $caseBit (param $fold i32) (param $byte i32) (result i32)
    (select (i32.const 0x20) (i32.const 0)
      (i32.and (local.get $fold)
        (i32.lt_u (i32.sub (local.get $byte) (i32.const 0x61)) (i32.const 26)))))

  ;; Whether the `length` bytes at `needle` occur at `at`; with `fold` (a needle in lower case),
  ;; an ASCII letter matches in either case. 16 bytes a step, the text's bytes facing a
  ;; lower-case letter of the needle given their case bit first (up to 15 bytes past the needle
  ;; and past `at + length` are read, and ignored: both lie inside the memory).
  (func $matchesAt (param $needle i32) (param $length i32) (param $at i32) (param $fold i32) (result i32)
    (local $index i32) (local $expected v128) (local $wanted i32)
    (block $differs
      (loop $lanes
        (if (i32.ge_s (local.get $index) (local.get $length)) (then (return (i32.const 1))))
        (local.set $expected (v128.load (i32.add (local.get $needle) (local.get $index))))
        (local.set $wanted
          (if (result i32) (i32.ge_s (i32.sub (local.get $length) (local.get $index)) (i32.const 16))
            (then (i32.const 0xffff))
            (else (i32.sub
              (i32.shl (i32.const 1) (i32.sub (local.get $length) (local.get $index)))
              (i32.const 1)))))
        (br_if $differs (i32.ne (local.get $wanted) (i32.and (local.get $wanted) (i8x16.bitmask
          (i8x16.eq
            (v128.or
              (v128.load (i32.add (local.get $at) (local.get $index)))
              (v128.and
                (v128.and
                  (i8x16.ge_u (local.get $expected) (i8x16.splat (i32.const 0x61)))
                  (i8x16.le_u (local.get $expected) (i8x16.splat (i32.const 0x7a))))
                (i8x16.splat (i32.mul (local.get $fold) (i32.const 0x20)))))
            (local.get $expected))))))
        (local.set $index (i32.add (local.get $index) (i32.const 16)))
        (br $lanes)))
    (i32.const 0))

  ;; Finds the lines of [start, end) holding the `length` (>= 1) bytes at `needle`, in order.
  ;; Candidates come 16 positions at a time from a packed pair: the needle's first byte and
  ;; its byte at `pair`, compared at both offsets and the masks ANDed, so a candidate needs two
  ;; bytes right; each is then compared whole. Each matching line's start, the needle's first
  ;; hit in it and its end (its `\n`, or `end`) go to `out` as three i32s, up to `capacity`
  ;; lines; with `out` 0 nothing is written and line starts are not looked for (a count).
  ;; With `fold` 1 and the needle in lower case, ASCII letters match in either case: the text's
  ;; bytes facing a letter get their case bit set before they are compared.
  ;; Returns how many lines it found, and leaves in $resume where to call again (>= end: done).
  (func (export "search")
    (param $needle i32) (param $length i32) (param $pair i32)
    (param $start i32) (param $end i32) (param $out i32) (param $capacity i32) (param $fold i32)
    (result i32)
    (local $first v128) (local $second v128) (local $firstCase v128) (local $secondCase v128)
    (local $at i32) (local $base i32) (local $mask i32) (local $hit i32) (local $lineEnd i32)
    (local $found i32)
    (local.set $first (i8x16.splat (i32.load8_u (local.get $needle))))
    (local.set $second (i8x16.splat (i32.load8_u (i32.add (local.get $needle) (local.get $pair)))))
    (local.set $firstCase (i8x16.splat
      (call $caseBit (local.get $fold) (i32.load8_u (local.get $needle)))))
    (local.set $secondCase (i8x16.splat
      (call $caseBit (local.get $fold) (i32.load8_u (i32.add (local.get $needle) (local.get $pair))))))
    (local.set $at (local.get $start))
    (block $finished
      (loop $scan
        ;; 64 positions at a time while none is a candidate: one branch per four lanes
        (block $candidate
          (loop $skip
            (br_if $candidate
              (i32.gt_s (i32.add (i32.add (local.get $at) (local.get $pair)) (i32.const 64)) (local.get $end)))
            (br_if $candidate (v128.any_true (v128.or
              (v128.or
                (v128.and
              (i8x16.eq (v128.or (v128.load offset=0 (local.get $at)) (local.get $firstCase)) (local.get $first))
              (i8x16.eq (v128.or (v128.load offset=0 (i32.add (local.get $at) (local.get $pair))) (local.get $secondCase)) (local.get $second)))
                (v128.and
              (i8x16.eq (v128.or (v128.load offset=16 (local.get $at)) (local.get $firstCase)) (local.get $first))
              (i8x16.eq (v128.or (v128.load offset=16 (i32.add (local.get $at) (local.get $pair))) (local.get $secondCase)) (local.get $second))))
              (v128.or
                (v128.and
              (i8x16.eq (v128.or (v128.load offset=32 (local.get $at)) (local.get $firstCase)) (local.get $first))
              (i8x16.eq (v128.or (v128.load offset=32 (i32.add (local.get $at) (local.get $pair))) (local.get $secondCase)) (local.get $second)))
                (v128.and
              (i8x16.eq (v128.or (v128.load offset=48 (local.get $at)) (local.get $firstCase)) (local.get $first))
              (i8x16.eq (v128.or (v128.load offset=48 (i32.add (local.get $at) (local.get $pair))) (local.get $secondCase)) (local.get $second)))))))
            (local.set $at (i32.add (local.get $at) (i32.const 64)))
            (br $skip)))
        (local.set $base (local.get $at))
        (if (i32.le_s (i32.add (i32.add (local.get $at) (local.get $pair)) (i32.const 16)) (local.get $end))
          (then
            (local.set $mask (i8x16.bitmask (v128.and
              (i8x16.eq (v128.or (v128.load (local.get $at)) (local.get $firstCase)) (local.get $first))
              (i8x16.eq (v128.or (v128.load (i32.add (local.get $at) (local.get $pair))) (local.get $secondCase)) (local.get $second)))))
            (local.set $at (i32.add (local.get $at) (i32.const 16))))
          (else
            ;; the last positions, one at a time; the whole compare checks the pair
            (if (i32.gt_s (i32.add (local.get $at) (local.get $length)) (local.get $end))
              (then
                (local.set $at (local.get $end))
                (br $finished)))
            (local.set $mask (i32.const 1))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))))
        (block $nextGroup
          (loop $candidates
            (br_if $nextGroup (i32.eqz (local.get $mask)))
            (local.set $hit (i32.add (local.get $base) (i32.ctz (local.get $mask))))
            (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
            (br_if $candidates (i32.gt_s (i32.add (local.get $hit) (local.get $length)) (local.get $end)))
            (br_if $candidates (i32.eqz
              (call $matchesAt (local.get $needle) (local.get $length) (local.get $hit) (local.get $fold))))
            (local.set $lineEnd (call $lineEnd (local.get $hit) (local.get $end)))
            (if (local.get $out)
              (then
                (i32.store (local.get $out) (call $lineStart (local.get $start) (local.get $hit)))
                (i32.store offset=4 (local.get $out) (local.get $hit))
                (i32.store offset=8 (local.get $out) (local.get $lineEnd))
                (local.set $out (i32.add (local.get $out) (i32.const 12)))))
            (local.set $found (i32.add (local.get $found) (i32.const 1)))
            ;; the rest of a matching line needs no look
            (local.set $at (i32.add (local.get $lineEnd) (i32.const 1)))
            (br_if $finished (i32.ge_s (local.get $at) (local.get $end)))
            (br_if $finished (i32.and
              (i32.ne (local.get $out) (i32.const 0))
              (i32.eq (local.get $found) (local.get $capacity))))
            (br $scan)))
        (br $scan)))
    (global.set $resume (local.get $at))
    (local.get $found))

  ;; The row the last `dfa` call stood at when it stopped.
  (global $row (export "row") (mut i32) (i32.const 0))

  ;; Walks a line automaton over [start, end) from the row at address `row`, back to the row at
  ;; `lineStart` after each line. The rows are at `table`, 256 i32s each: for each byte, the
  ;; address of the next row. The first three rows end a line's walk: match, unsure (the regex
  ;; decides) and dead (no match in the rest of the line); the first row's entries are never
  ;; read, and its first 32 bytes hold the bytes that leave the row at `idle` (`idle` -1: none),
  ;; which are skipped to 16 at a time. Each line a walk ends on with match or
  ;; unsure goes to `out` as three i32s: its start, 0 (match) or 1 (unsure), its end (its
  ;; `\n`, or `end`), up to `capacity` (at least 1) lines. A line running past `end` leaves the
  ;; walk dead, so a next call over the following bytes skips the rest of it.
  ;; Returns how many lines it wrote; $resume: where to call again (>= end: done); $row: the row
  ;; there.
  (func (export "dfa")
    (param $table i32) (param $lineStart i32) (param $idle i32) (param $high i32) (param $row i32)
    (param $start i32) (param $end i32) (param $out i32) (param $capacity i32) (result i32)
    (local $at i32) (local $ordinary i32) (local $stop i32) (local $lineEnd i32) (local $found i32)
    (local $low v128) (local $nibbles v128) (local $past v128) (local $bytes v128) (local $mask i32)
    (local.set $ordinary (i32.add (local.get $table) (i32.const 3072)))
    (local.set $low (v128.load offset=0 (local.get $table)))
    (local.set $nibbles (v128.load offset=16 (local.get $table)))
    (local.set $past (i8x16.splat (local.get $high)))
    (local.set $stop (i32.sub (local.get $end) (i32.const 4)))
    (local.set $at (local.get $start))
    ;; a walk handed over dead: the line it was in ends first
    (if (i32.lt_u (local.get $row) (local.get $ordinary))
      (then
        (local.set $lineEnd (call $lineEnd (local.get $at) (local.get $end)))
        (if (i32.ge_u (local.get $lineEnd) (local.get $end))
          (then
            (global.set $resume (local.get $end))
            (global.set $row (local.get $row))
            (return (i32.const 0))))
        (local.set $at (i32.add (local.get $lineEnd) (i32.const 1)))
        (local.set $row (local.get $lineStart))))
    (block $finished
      (loop $walk
        (block $ended
          (block $tail
            (loop $steps
              ;; idle: on to the next byte that starts something, 16 bytes a step: a byte is
              ;; one where its low nibble's bits (first 16 bytes of the table) and its high
              ;; nibble's bit (the next 16) meet, or past 0x7f where `high` is -1
              (if (i32.eq (local.get $row) (local.get $idle))
                (then
                  (block $started
                    (loop $lanes
                      (br_if $started (i32.gt_s (i32.add (local.get $at) (i32.const 16)) (local.get $end)))
                      (local.set $bytes (v128.load (local.get $at)))
                      (local.set $mask (i8x16.bitmask (v128.or
                        (i8x16.ne
                          (v128.and
                            (i8x16.swizzle (local.get $low)
                              (v128.and (local.get $bytes) (i8x16.splat (i32.const 15))))
                            (i8x16.swizzle (local.get $nibbles) (i8x16.shr_u (local.get $bytes) (i32.const 4))))
                          (v128.const i64x2 0 0))
                        (v128.and (i8x16.lt_s (local.get $bytes) (v128.const i64x2 0 0)) (local.get $past)))))
                      (if (local.get $mask)
                        (then
                          (local.set $at (i32.add (local.get $at) (i32.ctz (local.get $mask))))
                          (br $started)))
                      (local.set $at (i32.add (local.get $at) (i32.const 16)))
                      (br $lanes)))))
              ;; four bytes a step while four remain: the row is the only dependency between them
              (br_if $tail (i32.gt_s (local.get $at) (local.get $stop)))
              (local.set $row (i32.load (i32.add (local.get $row)
                (i32.shl (i32.load8_u offset=0 (local.get $at)) (i32.const 2)))))
              (local.set $at (i32.add (local.get $at) (i32.const 1)))
              (br_if $ended (i32.lt_u (local.get $row) (local.get $ordinary)))
              (local.set $row (i32.load (i32.add (local.get $row)
                (i32.shl (i32.load8_u offset=0 (local.get $at)) (i32.const 2)))))
              (local.set $at (i32.add (local.get $at) (i32.const 1)))
              (br_if $ended (i32.lt_u (local.get $row) (local.get $ordinary)))
              (local.set $row (i32.load (i32.add (local.get $row)
                (i32.shl (i32.load8_u offset=0 (local.get $at)) (i32.const 2)))))
              (local.set $at (i32.add (local.get $at) (i32.const 1)))
              (br_if $ended (i32.lt_u (local.get $row) (local.get $ordinary)))
              (local.set $row (i32.load (i32.add (local.get $row)
                (i32.shl (i32.load8_u offset=0 (local.get $at)) (i32.const 2)))))
              (local.set $at (i32.add (local.get $at) (i32.const 1)))
              (br_if $ended (i32.lt_u (local.get $row) (local.get $ordinary)))
              (br $steps)))
          (loop $bytes
            (if (i32.ge_u (local.get $at) (local.get $end))
              (then
                (global.set $resume (local.get $end))
                (global.set $row (local.get $row))
                (return (local.get $found))))
            (local.set $row (i32.load (i32.add (local.get $row)
              (i32.shl (i32.load8_u (local.get $at)) (i32.const 2)))))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (br_if $ended (i32.lt_u (local.get $row) (local.get $ordinary)))
            (br $bytes)))
        ;; the byte before `at` ended the line's walk (a `\n` itself, where a match ends at `$`)
        (local.set $lineEnd (call $lineEnd (i32.sub (local.get $at) (i32.const 1)) (local.get $end)))
        (if (i32.lt_u (local.get $row) (i32.add (local.get $table) (i32.const 2048)))
          (then
            (i32.store (local.get $out)
              (call $lineStart (local.get $start) (i32.sub (local.get $at) (i32.const 1))))
            (i32.store offset=4 (local.get $out) (i32.ne (local.get $row) (local.get $table)))
            (i32.store offset=8 (local.get $out) (local.get $lineEnd))
            (local.set $out (i32.add (local.get $out) (i32.const 12)))
            (local.set $found (i32.add (local.get $found) (i32.const 1)))))
        (if (i32.ge_u (local.get $lineEnd) (local.get $end))
          (then
            (local.set $row (i32.add (local.get $table) (i32.const 2048)))
            (local.set $at (local.get $end))
            (br $finished)))
        (local.set $at (i32.add (local.get $lineEnd) (i32.const 1)))
        (local.set $row (local.get $lineStart))
        (br_if $finished (i32.ge_u (local.get $found) (local.get $capacity)))
        (br $walk)))
    (global.set $resume (local.get $at))
    (global.set $row (local.get $row))
    (local.get $found))
)
