#!/usr/bin/env bash
# build.sh — installs what is missing, builds Colony and runs it.
#   ./build.sh            build Release into build/ and start the game
#   ./build.sh test       build and run every test through ctest (but the hour-long ecology check)
#   ./build.sh hour       the hour-long ecology check: default.json for 216,000 ticks at seeds 1-5
#   ./build.sh bench      build Release and run the benchmarks (build/bench.json)
#   ./build.sh sanitize   build the tests with -fsanitize=address,undefined into build-asan/ and run them
#   ./build.sh threads    build the tests of what runs on several threads with -fsanitize=thread
#                         into build-tsan/ and run them
#   ./build.sh fuzz SECS  build the libFuzzer targets with clang and run each for SECS seconds
#   ./build.sh mutants [NAME...]  apply each mutant of tests/mutants/mutants.txt alone in a
#                         scratch copy (build-mutants/) and check that its tests catch it
set -euo pipefail
cd "$(dirname "$0")"

# What the build uses (compilers, CMake's packages), then what the tests and benchmarks run:
# GoogleTest, Google Benchmark, python3 (bench/ratios.py, which the bench smoke test runs)
# and Mesa's software OpenGL (llvmpipe), which SDL's offscreen driver renders with.
PACKAGES=(cmake g++ make ccache pkg-config libsdl2-dev libsdl2-image-dev libimgui-dev
          nlohmann-json3-dev libcli11-dev libstb-dev libzstd-dev libxxhash-dev
          libglm-dev libgtest-dev libbenchmark-dev python3 libgl1-mesa-dri)
FUZZ_PACKAGES=(clang libclang-rt-14-dev)
JOBS=$(nproc 2>/dev/null || echo 2)

install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    echo "build.sh: installing ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "build.sh: missing packages; run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
}

configure_and_build() {  # dir, extra cmake args..., then targets after --
  local dir=$1; shift
  local args=() targets=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  targets=("$@")
  # Quiet when it works; when it does not, cmake's own words say why.
  mkdir -p "$dir"
  if ! cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "${args[@]}" >"$dir/configure.log" 2>&1; then
    cat "$dir/configure.log" >&2
    echo "build.sh: cmake could not configure $dir (its output is above and in $dir/configure.log)" >&2
    exit 1
  fi
  if [ ${#targets[@]} -gt 0 ]; then
    cmake --build "$dir" -j "$JOBS" --target "${targets[@]}"
  else
    cmake --build "$dir" -j "$JOBS"
  fi
}

mode=${1:-run}
case "$mode" in
  run)
    install_missing "${PACKAGES[@]}"
    configure_and_build build -- colony
    shift || true
    exec build/colony "$@"
    ;;
  test)
    install_missing "${PACKAGES[@]}"
    configure_and_build build
    cd build && ctest --output-on-failure -j "$JOBS" -LE hour
    ;;
  hour)
    install_missing "${PACKAGES[@]}"
    configure_and_build build
    cd build && ctest --output-on-failure -j "$JOBS" -L hour
    ;;
  sanitize)
    install_missing "${PACKAGES[@]}"
    # -O1 -g1: half the compile time of -O2 -g under the sanitizers (their instrumented code is
    # what makes those builds slow), with line numbers in every report.
    configure_and_build build-asan -DCOLONY_SANITIZE=ON -DCOLONY_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
    cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      ctest --output-on-failure -j "$JOBS" -LE "slow|hour"
    ;;
  threads)
    install_missing "${PACKAGES[@]}"
    # The tests of everything that runs on more than one thread (the simulation's crew, the
    # window's simulation thread, the history's compression thread), under ThreadSanitizer.
    configure_and_build build-tsan -DCOLONY_TSAN=ON -DCOLONY_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -- ecs_unit_tests sim_threads_test sim_history_test sim_thread_test
    # Every shipped scenario on 1, 2 and 4 threads takes three and a half minutes under it; the
    # crowded battle runs the same passes, orders and atomics on every count in ten seconds.
    cd build-tsan && TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/../tests/tsan_suppressions.txt" \
      ctest --output-on-failure -j "$JOBS" -R '^(Workers|RecordJobs|SimThreads|History|SimThread)\.' \
      -E 'EveryShippedScenarioHashesTheSame'
    ;;
  bench)
    install_missing "${PACKAGES[@]}"
    configure_and_build build -- colony_bench
    build/bench/colony_bench --benchmark_out=build/bench.json --benchmark_out_format=json "${@:2}"
    python3 bench/ratios.py build/bench.json
    ;;
  mutants)
    install_missing "${PACKAGES[@]}"
    exec python3 tests/mutants/run.py "${@:2}"
    ;;
  fuzz)
    install_missing "${PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
    secs=${2:-60}
    # Everything is built with libFuzzer's coverage hooks and ASan+UBSan; the targets link libFuzzer.
    CC=clang CXX=clang++ configure_and_build build-fuzz -DCOLONY_FUZZ=ON -DCOLONY_SANITIZE=ON -DCOLONY_GAME=ON \
      -DCOLONY_TESTS=ON -DCOLONY_BENCH=OFF -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -- colony_fuzzers
    mkdir -p build-fuzz/artifacts
    for name in fuzz_scenario fuzz_save fuzz_replay; do
      mkdir -p "build-fuzz/corpus/$name"
      echo "fuzzing $name for ${secs}s" >&2
      # A crash leaves its input in build-fuzz/artifacts/ (keep it in tests/fuzz/regressions/<kind>/).
      # The kept inputs are read first with the seeds, so each run checks them again under
      # clang's sanitizers (GCC's do not bounds-check an array that ends a struct).
      "build-fuzz/tests/fuzz/$name" -max_total_time="$secs" -timeout=30 -print_final_stats=0 \
        -artifact_prefix="build-fuzz/artifacts/$name-" "build-fuzz/corpus/$name" "tests/fuzz/seeds/${name#fuzz_}" \
        "tests/fuzz/regressions/${name#fuzz_}"
    done
    ;;
  *)
    echo "build.sh: unknown mode '$mode' (use: run, test, hour, bench, sanitize, threads, fuzz SECONDS, mutants [NAME...])" >&2
    exit 2
    ;;
esac
