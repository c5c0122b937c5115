#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The sanitizer and bounded-fuzzing part of CI.
#
#  1. configures a clang build (gcc when clang is missing: then no fuzzers)
#     with -Db_sanitize=address,undefined -Dgui=false -Dbenchmarks=false
#     -Dfuzzing=true in $BUILDDIR (default _build-sanitize);
#  2. runs the core, model, render, cli and fuzz suites there under AddressSanitizer
#     (with LeakSanitizer) and UndefinedBehaviorSanitizer, halting on the
#     first error;
#  3. runs each libFuzzer target (file, format, analysis, views, elf, index-cache, ctf-wire,
#     span-rules, ctf-trace: a CTF stream file read through the reader child, follow,
#     span-cache), $JOBS
#     (default 2) at a time, from a scratch copy of its seed corpus
#     (tests/fuzz/corpus/NAME; analysis and follow use corpus/file; plus the recorded
#     VPP capture tests/fixtures/vpp-sample.cpel for both): a fixed number
#     of inputs (about a minute each here) from the fixed seed $FUZZ_SEED
#     (default 1), so that CI fails on what a change broke, the same on
#     every run, never on what a luckier draw found in old code.  At most
#     $FUZZ_SECONDS (default 180) seconds a target on a slow machine (then a
#     prefix of the same inputs).
#     FUZZ_SEED=random draws a new seed: exploration, as in tests/fuzz/README.md.
#  4. builds the viewer's random-input test (tests/app/test-random-input.c)
#     with the same sanitizers in $GUI_BUILDDIR (default _build-sanitize-gui)
#     and runs it under xvfb-run: $CPEL_RANDOM_SEEDS seeds (default 4) of
#     $CPEL_RANDOM_ACTIONS actions (default 1000); LeakSanitizer is off there
#     (GTK, fontconfig and the GLib type system keep one-off allocations).
#     A longer run, the target the viewer is held to (10 seeds x 2000 actions):
#       CPEL_RANDOM_SEEDS=10 CPEL_RANDOM_ACTIONS=2000 build-aux/sanitize.sh
# Exit status non-zero on any failure; a crashing fuzz input is kept and the
# command replaying it is printed.  Takes about 5 minutes on 2 cores from a
# clean build directory (4 min 37 s measured: build, suites, 4 x 60 s fuzzing).
#
# Usage: build-aux/sanitize.sh    BUILDDIR=... FUZZ_SEED=... FUZZ_SECONDS=... to change
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
cd "$top"
. "$here/deps.sh"
cpel_install_deps clang libclang-rt-14-dev xvfb xauth openbox x11-utils lttng-tools liblttng-ust-dev

builddir=${BUILDDIR:-_build-sanitize}
fuzz_seconds=${FUZZ_SECONDS:-180}
fuzz_seed=${FUZZ_SEED:-1}
# inputs per target: about 60 s each on the 2-core CI machine
declare -A fuzz_runs=([file]=400000 [format]=1200000 [analysis]=35000 [views]=100000 [elf]=300000 [index-cache]=30000
                        [ctf-wire]=200000 [span-rules]=300000 [ctf-trace]=500 [follow]=10000
                        [span-cache]=300000)
jobs=${JOBS:-2}

fuzzing=false
if [ -z "${CC:-}" ] && command -v clang >/dev/null 2>&1; then
  export CC=clang
fi
if "${CC:-cc}" --version 2>/dev/null | grep -q clang; then
  fuzzing=true
else
  echo "sanitize.sh: no clang: sanitizer tests only, no fuzzing" >&2
fi

opts=(-Db_sanitize=address,undefined -Db_lundef=false -Dgui=false -Dbenchmarks=false
      -Dfuzzing=$fuzzing -Dbuildtype=debugoptimized)
if [ -d "$builddir/meson-private" ]; then
  meson setup --reconfigure "$builddir" "${opts[@]}" >/dev/null
else
  meson setup "$builddir" "${opts[@]}"
fi
meson compile -C "$builddir"

# ---- the test suites under the sanitizers ---------------------------------
# LeakSanitizer: third-party libraries' one-off allocations (fontconfig,
# pango's font maps...) are suppressed in build-aux/lsan.supp; ours are not.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:max_allocation_size_mb=2048:allocator_may_return_null=0"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# Tests whose GLib-internal leaks are suppressed by a GLib frame need full
# malloc stacks (fast unwinding stops at the first GLib frame); that is too
# slow for every test, so these run apart.
full_stack_tests=(test-views test-ctf-trace test-index-cache test-index-store
                  test-index-cache-writer)
mapfile -t tests < <(meson test -C "$builddir" --no-rebuild --list \
                       --suite core --suite model --suite render --suite cli --suite fuzz 2>/dev/null |
                     sed -n 's|^[^ ]* / ||p')
rest=() full=()
for t in "${tests[@]}"; do
  if [[ " ${full_stack_tests[*]} " == *" $t "* ]]; then full+=("$t"); else rest+=("$t"); fi
done
# each run its own log (--logbase): .ci/run sums them all
meson test -C "$builddir" --no-rebuild --print-errorlogs --num-processes "$jobs" \
  --timeout-multiplier 3 --logbase testlog-suites "${rest[@]}"
if [ ${#full[@]} -gt 0 ]; then
  ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" \
    meson test -C "$builddir" --no-rebuild --print-errorlogs --num-processes "$jobs" \
      --timeout-multiplier 3 --logbase testlog-full-stack "${full[@]}"
fi

# ---- random input on the viewer, under the sanitizers ------------------------
guidir=${GUI_BUILDDIR:-_build-sanitize-gui}
gui_opts=(-Db_sanitize=address,undefined -Db_lundef=false -Dgui=true -Dbenchmarks=false
          -Dfuzzing=false -Dbuildtype=debugoptimized)
if [ -d "$guidir/meson-private" ]; then
  meson setup --reconfigure "$guidir" "${gui_opts[@]}" >/dev/null
else
  meson setup "$guidir" "${gui_opts[@]}" >/dev/null
fi
meson compile -C "$guidir" app-test-random-input gsettings-compile-data
CPEL_RANDOM_SEEDS=${CPEL_RANDOM_SEEDS:-4} CPEL_RANDOM_ACTIONS=${CPEL_RANDOM_ACTIONS:-1000} \
ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 \
  xvfb-run -a -s "-screen 0 1280x800x24" "$here/with-wm.sh" \
    meson test -C "$guidir" --no-rebuild --print-errorlogs --timeout-multiplier 6 \
      --logbase testlog-random-input test-random-input

# ---- ThreadSanitizer: the threads of the followers and the span engine ----------
# A core-only build of its own: a ring written by a thread racing its reader,
# the live capture's reader, builder and main context, the span engine's
# threads and its cache's store, the index cache writer.  GLib's own locks
# are told to it where ours use them (src/core/cpel-tsan-private.h);
# build-aux/tsan.supp leaves GLib's internals out.  Not here: the tests of
# the CTF reader's child (libbabeltrace2's plugins are not built with it),
# of SIGBUS handling, and GTask results (test-background: GLib hands them
# over where it cannot see).
tsandir=${TSAN_BUILDDIR:-_build-tsan}
tsan_opts=(-Db_sanitize=thread -Db_lundef=false -Dgui=false -Dbenchmarks=false -Dfuzzing=false
           -Dbuildtype=debugoptimized)
if [ -d "$tsandir/meson-private" ]; then
  meson setup --reconfigure "$tsandir" "${tsan_opts[@]}" >/dev/null
else
  meson setup "$tsandir" "${tsan_opts[@]}" >/dev/null
fi
mapfile -t tsan_have < <(meson test -C "$tsandir" --no-rebuild --list --suite core 2>/dev/null |
                         sed -n 's|^[^ ]* / ||p')
tsan_tests=()
for t in test-snabb-follow test-follow test-perf-follow test-live-capture test-spans \
         test-span-cache test-span-replay test-index-cache-writer test-stream; do
  if [[ " ${tsan_have[*]} " == *" $t "* ]]; then tsan_tests+=("$t"); fi
done
meson compile -C "$tsandir" "${tsan_tests[@]/#/core-}"
tsan_env="halt_on_error=1:second_deadlock_stack=1:print_suppressions=0"
G_SLICE=always-malloc TSAN_OPTIONS="$tsan_env:suppressions=$here/tsan.supp" \
  meson test -C "$tsandir" --no-rebuild --print-errorlogs --num-processes "$jobs" \
    --timeout-multiplier 4 --logbase testlog-tsan \
    --test-args="-s /core/spans/lttng-states -s /core/spans/perf-ctf-states" "${tsan_tests[@]}"

# ---- bounded fuzzing -----------------------------------------------------------
[ "$fuzzing" = true ] || exit 0

work=$(mktemp -d "${TMPDIR:-/tmp}/cpel-fuzz-XXXXXX")
failed=0
targets=(file format analysis views elf index-cache ctf-wire span-rules ctf-trace follow span-cache)

start_target () {
  local name=$1 seeds=$1
  { [ "$name" = analysis ] || [ "$name" = follow ]; } && seeds=file
  mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
  cp tests/fuzz/corpus/"$seeds"/* "$work/$name/corpus/"
  if [ "$seeds" = file ]; then
    cp tests/fixtures/vpp-sample.cpel "$work/$name/corpus/"
  fi
  local seed_arg=()
  [ "$fuzz_seed" = random ] || seed_arg=(-seed="$fuzz_seed" -runs="${fuzz_runs[$name]}")
  # leak detection per input is slow and covered by the suites above
  ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
    "$builddir/tests/fuzz/fuzz-$name" "${seed_arg[@]}" -max_total_time="$fuzz_seconds" -max_len=8192 \
      -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
      -artifact_prefix="$work/$name/artifacts/" "$work/$name/corpus" \
      >"$work/$name/log" 2>&1 &
  pids[$name]=$!
}

finish_target () {
  local name=$1 execs
  if wait "${pids[$name]}"; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name/log")
    echo "fuzz-$name: ${execs:-?} executions (seed $fuzz_seed), no finding"
  else
    failed=1
    echo "fuzz-$name: FAILED" >&2
    grep -v '^#[0-9]' "$work/$name/log" | tail -60 >&2
    for a in "$work/$name"/artifacts/*; do
      [ -e "$a" ] || continue
      echo "reproduce: $builddir/tests/fuzz/fuzz-$name-replay $a" >&2
      echo "  (add it to tests/fuzz/ as a regression: see tests/fuzz/meson.build)" >&2
    done
  fi
}

# $jobs targets at a time
declare -A pids
batch=()
for name in "${targets[@]}"; do
  start_target "$name"
  batch+=("$name")
  if [ ${#batch[@]} -ge "$jobs" ]; then
    for n in "${batch[@]}"; do finish_target "$n"; done
    batch=()
  fi
done
for n in "${batch[@]}"; do finish_target "$n"; done

if [ $failed -eq 0 ]; then
  rm -rf "$work"
else
  echo "fuzzing work kept in $work" >&2
fi
exit $failed
