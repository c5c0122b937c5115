# SPDX-License-Identifier: Apache-2.0
# bench-util.sh — what the benchmark scripts (tests/bench/run-*.sh,
# tests/bench/scale/run-scale.sh) share; sourced, never run:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"
#
# The captures are generated with `cpel gen` into the build directory, never
# committed.  The functions that generate or measure expect the script's
# globals `cpel` (the built `cpel` binary) and, for bench_measure,
# `bench_run` (the built bench-run program).

# bench_args MIN MAX USAGE ARG...: exit 2 with "usage: SCRIPT USAGE" unless
# MIN <= number of ARGs <= MAX.
bench_args () {
  local min=$1 max=$2 usage=$3
  shift 3
  if [ $# -lt "$min" ] || [ $# -gt "$max" ]; then
    echo "usage: $0 $usage" >&2
    exit 2
  fi
}

now_ns () { date +%s%N; }

# The load average over 1, 5 and 15 minutes ("2.01 1.87 1.50").
bench_load () { cut -d' ' -f1-3 /proc/loadavg; }

# bench_need_tools TOOL...: exit 77 (skipped) when one is not on the PATH.
bench_need_tools () {
  local tool
  for tool in "$@"; do
    if ! command -v "$tool" > /dev/null; then
      echo "SKIP: $tool not found"
      exit 77
    fi
  done
}

# bench_missing_mb EVENTS FILE...: the MB the FILEs not written yet take
# (20 bytes an event each).
bench_missing_mb () {
  local events=$1 f mb=0
  shift
  for f in "$@"; do
    [ -f "$f" ] || mb=$(( mb + events * 20 / 1000000 ))
  done
  echo "$mb"
}

# bench_need_disk DIR MB: exit 77 (skipped) when DIR has less than MB free.
bench_need_disk () {
  local dir=$1 need_mb=$2 free_mb
  free_mb=$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')
  if [ "$free_mb" -lt "$need_mb" ]; then
    echo "SKIP: $need_mb MB of disk needed in $dir, $free_mb MB free"
    exit 77
  fi
}

# bench_need_mem MB: exit 77 (skipped) when less than MB is available.
bench_need_mem () {
  local need_mb=$1 mem_mb
  mem_mb=$(awk '/MemAvailable/ { printf "%d", $2 / 1024 }' /proc/meminfo)
  if [ "$mem_mb" -lt "$need_mb" ]; then
    echo "SKIP: $need_mb MB of memory needed, $mem_mb MB available"
    exit 77
  fi
}

# bench_gen FILE GEN-ARG...: `cpel gen GEN-ARG...` into FILE.part, then
# renamed to FILE when it succeeded (an interrupted or failed run leaves no
# capture that looks whole); its status is cpel gen's.
bench_gen () {
  local file=$1
  shift
  "$cpel" gen "$@" "$file.part" --force && mv -f "$file.part" "$file"
}

# bench_measure NAME RUNS CMD...: bench-run's figures of RUNS runs of CMD
# into R[NAME.best_s], R[NAME.user_s], R[NAME.sys_s], R[NAME.peak_kb],
# R[NAME.runs_s]; exit 1 when CMD failed.
declare -A R
bench_measure () {
  local name=$1 runs=$2 key value
  shift 2
  while IFS='=' read -r key value; do
    R[$name.$key]=$value
  done < <("$bench_run" "$runs" "$@")
  if [ "${R[$name.status]}" != 0 ]; then
    echo "FAILED: $* (exit ${R[$name.status]})" >&2
    exit 1
  fi
}

# bench_verdict VALUE LIMIT: "ok" when VALUE <= LIMIT, else "MISSED".
bench_verdict () {
  if awk -v v="$1" -v l="$2" 'BEGIN { exit !(v <= l) }'; then
    echo "ok"
  else
    echo "MISSED"
  fi
}

# bench_ratio A B: A / B with two decimals ("n/a" when B is 0).
bench_ratio () { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

# bench_mb KB: whole MB (of 1024 KB).
bench_mb () { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

# bench_xvfb CMD...: CMD under xvfb-run in the environment of the README
# and the tests — a 24-bit screen (the default 8-bit one makes GTK convert
# every pixel), GTK's cairo renderer (Xvfb has no GPU: GL would be
# llvmpipe), no accessibility bus — bounded to 15 minutes.
bench_xvfb () {
  timeout 900 env GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none GSETTINGS_BACKEND=memory \
    NO_AT_BRIDGE=1 xvfb-run -a -s "-screen 0 1280x800x24" "$@"
}

# bench_xvfb_json JSON CMD...: CMD under bench_xvfb, its output in JSON and
# its stderr in JSON.err; exit 1 with the last lines of it when it fails.
bench_xvfb_json () {
  local json=$1
  shift
  if ! bench_xvfb "$@" > "$json" 2> "$json.err"; then
    echo "$(basename "$1") ${*:2} failed: $(tail -3 "$json.err" | tr '\n' ' ')" >&2
    exit 1
  fi
}

# bench_cpelview JSON ARG...: `CPELVIEW ARG...` (the script's `cpelview`)
# through bench_xvfb_json.
bench_cpelview () {
  local json=$1
  shift
  bench_xvfb_json "$json" "$cpelview" "$@"
}

# bench_median VALUE...: the median (of an even count, the mean of the two
# middle values), "n/a" for none.
bench_median () {
  printf '%s\n' "$@" | sed '/^$/d' | sort -n \
    | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2];
                                 else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
