#!/usr/bin/env bash
# Install the library into a scratch prefix, build the README's example against it with
# pkg-config and with find_package(vsym), and run both on 2 ranks.
set -eu
build="$1"; src="$(cd "$(dirname "$0")" && pwd)"; run="$src/../../launch/vsym-run"
# In sanitizer builds the installed library is instrumented: the example links the runtime too.
san=""; [ "${2:-OFF}" = "ON" ] && san="-fsanitize=address,undefined"
work=$(mktemp -d "$build/install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(ls -d "$work"/prefix/lib* | head -1)
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc -std=c11 -Wall -Werror $san "$src/example.c" -o "$work/example" $(pkg-config --cflags --libs vsym) \
   -Wl,-rpath,"$libdir"
"$run" -n 2 --timeout 60 -- "$work/example" | sort | tee "$work/out"
[ "$(grep -c ': ok' "$work/out")" = 2 ] || { echo "FAIL: pkg-config example"; exit 1; }
mkdir "$work/consumer"
cp "$src/example.c" "$work/consumer/"; cp "$src/CMakeLists.txt.in" "$work/consumer/CMakeLists.txt"
cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" \
      -DCMAKE_BUILD_RPATH="$libdir" >/dev/null
cmake --build "$work/consumer/build" >/dev/null
"$run" -n 2 --timeout 60 -- "$work/consumer/build/example_cmake" | sort | tee "$work/out2"
[ "$(grep -c ': ok' "$work/out2")" = 2 ] || { echo "FAIL: find_package example"; exit 1; }
echo "PASS: installed library used through pkg-config and find_package(vsym)"
