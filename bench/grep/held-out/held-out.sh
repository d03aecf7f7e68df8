#!/usr/bin/env bash
# The held-out grep check: patterns and a log (generate-kv-log.mjs) that the engine was never
# tuned on, the way an outside check of the corpus's categories would run them.
#   bash bench/grep/held-out/held-out.sh [--fresh] [LOG] (after npm run build; LOG default
#   bench/data/held-out-kv-4294967296.log, generated when missing: 4 GiB). --fresh generates it
#   again first, so the page cache holds it as just written (the state rg's mmap is fastest in).
# Each case runs GNU grep -a (-E unless -F), rg, rg --no-mmap and spoolforge grep three times,
# interleaved; the first run writes a new file (compared byte for byte with GNU grep's), the
# others write over it in place. Prints each tool's minimum wall time, spoolforge's ratio to the
# fastest peer, and the geometric mean. Outputs go to /dev/shm. Run it on a quiet machine.
# No -e: grep exits 1 on a count of 0, and that is a result.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
fresh=false
if [ "${1:-}" = --fresh ]; then fresh=true; shift; fi
log=${1:-$root/bench/data/held-out-kv-4294967296.log}
if $fresh || [ ! -f "$log" ]; then
  node "$root/bench/grep/held-out/generate-kv-log.mjs" 4294967296 "$log.partial"
  sync "$log.partial"
  mv "$log.partial" "$log"
fi
cli="$root/dist/cli/main.js"
export LC_ALL=C
cases=(
  '-c -F|OutOfMemoryError'
  '-c -F|ERROR'
  '-c -F|route=/api/v1/users/56955 '
  '-c -i|outofmemoryerror'
  '-c -i|timeout'
  '-c|ERROR|FATAL'
  '-c|ERROR.*checksum'
  '-c|status=5[0-9][0-9]'
  '-c|^1700000000044'
  '-c|timeout"$'
  '-c|[a-f0-9]{8}-[a-f0-9]{4}'
  '-c|latency_ms=[0-9]{4}'
  '-c -w|GET'
  '-c -i|refused|reset'
  '-c|Handler\.java:[0-9]+\)'
  '-n -C 3 -F|OutOfMemoryError'
  '-o|status=5[0-9][0-9]'
  '-F|ERROR'
  '-F|FATAL'
  '-v|INFO'
)
seconds() { # command... : wall seconds, stdout to $out (new file with --new, else in place)
  local mode=$1; shift
  if [ "$mode" = new ]; then { /usr/bin/time -f %e "$@" >"$out"; } 2>&1 | tail -1
  else { /usr/bin/time -f %e "$@" 1<>"$out"; } 2>&1 | tail -1; fi
}
logsum=0; count=0
printf '| flags | pattern | spoolforge | rg | rg --no-mmap | GNU grep | ratio |\n|---|---|---:|---:|---:|---:|---:|\n'
for spec in "${cases[@]}"; do
  flags=${spec%%|*}; pattern=${spec#*|}
  gnu_syntax=-E; [[ " $flags " == *" -F "* ]] && gnu_syntax=
  declare -A best=([gnu]=inf [rg]=inf [rgn]=inf [sf]=inf)
  for round in 1 2 3; do
    for tool in gnu rg rgn sf; do
      out=/dev/shm/held-out-$tool.out
      # shellcheck disable=SC2086 # flags are words
      case $tool in
        gnu) command=(grep -a $gnu_syntax $flags "$pattern" "$log") ;;
        rg) command=(rg $flags "$pattern" "$log") ;;
        rgn) command=(rg --no-mmap $flags "$pattern" "$log") ;;
        sf) command=(node "$cli" grep $flags "$pattern" "$log") ;;
      esac
      time=$(seconds "$([ $round = 1 ] && echo new || echo over)" "${command[@]}")
      best[$tool]=$(awk -v a="$time" -v b="${best[$tool]}" 'BEGIN { print (b == "inf" || a + 0 < b + 0) ? a : b }')
      if [ $round = 1 ] && [ $tool != gnu ] && ! cmp -s "$out" /dev/shm/held-out-gnu.out; then
        echo "!!! $tool's output differs from GNU grep's: $flags '$pattern'" >&2
      fi
    done
  done
  ratio=$(awk -v s="${best[sf]}" -v a="${best[rg]}" -v b="${best[rgn]}" -v c="${best[gnu]}" \
    'BEGIN { m = a; if (b < m) m = b; if (c < m) m = c; printf "%.2f", s / m }')
  logsum=$(awk -v l="$logsum" -v r="$ratio" 'BEGIN { print l + log(r) }'); count=$((count + 1))
  printf '| `%s` | `%s` | %s | %s | %s | %s | %s× |\n' "$flags" "$pattern" "${best[sf]}" "${best[rg]}" \
    "${best[rgn]}" "${best[gnu]}" "$ratio"
  rm -f /dev/shm/held-out-*.out
  unset best
done
awk -v l="$logsum" -v n="$count" 'BEGIN { printf "\ngeometric mean of the ratios: %.2f× over %d cases\n", exp(l / n), n }'
