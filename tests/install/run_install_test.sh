#!/usr/bin/env bash
# CTest install.external_project: installs this build into a temporary prefix and uses the result
# from outside the source tree, the two ways docs/install.md describes:
#   1. CMake: configure tests/install/external_project with CMAKE_PREFIX_PATH=<prefix>
#      (find_package(stasis) + stasis::stasis), build it, run it;
#   2. pkg-config: compile the same main.cpp with `pkg-config --cflags --libs stasis`
#      (PKG_CONFIG_PATH=<prefix>/<libdir>/pkgconfig), link, run.
# The program checks stasis::version() against the version the package announced, evaluates a
# compiled expression and solves a small MPCC with IPOPT. Also checks the installed file layout
# and the installed CLI. Usage (CMakeLists.txt passes these):
#   run_install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR VERSION CMAKE CXX LIBDIR
set -euo pipefail

if [ $# -ne 7 ]; then
  echo "usage: $0 BUILD_DIR SOURCE_DIR WORK_DIR VERSION CMAKE CXX LIBDIR" >&2
  exit 2
fi
build=$1 source=$2 work=$3 version=$4 cmake=$5 cxx=$6 libdir=$7
prefix=$work/prefix
project=$source/tests/install/external_project
start=$SECONDS

step() { echo "== [$((SECONDS - start))s] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# Runs a command quietly; on failure prints its output and fails.
run() {
  local log=$work/last_command.log
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "command failed: $*"
  fi
}

rm -rf "$work"
mkdir -p "$work"

step "cmake --install $build --prefix $prefix"
run "$cmake" --install "$build" --prefix "$prefix"
for f in include/stasis/version.hpp include/stasis/sym.hpp include/stasis/sym/function.hpp \
         include/stasis/mpcc/homotopy.hpp "$libdir/libstasis.a" bin/stasis \
         "$libdir/cmake/stasis/stasisConfig.cmake" "$libdir/cmake/stasis/stasisConfigVersion.cmake" \
         "$libdir/cmake/stasis/stasisTargets.cmake" "$libdir/pkgconfig/stasis.pc"; do
  [ -e "$prefix/$f" ] || fail "not installed: $prefix/$f"
done
cli_version=$("$prefix/bin/stasis" --version)
[ "$cli_version" = "$version" ] || fail "installed 'stasis --version' prints '$cli_version', expected '$version'"
echo "installed: headers, $libdir/libstasis.a, bin/stasis ($cli_version), CMake package, stasis.pc"

step "find_package(stasis): configure, build and run tests/install/external_project"
run "$cmake" -S "$project" -B "$work/cmake_build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
found_dir=$(sed -n 's/^stasis_DIR:PATH=//p' "$work/cmake_build/CMakeCache.txt")
[ "$found_dir" = "$prefix/$libdir/cmake/stasis" ] ||
  fail "find_package(stasis) found '$found_dir', not the package in $prefix"
run "$cmake" --build "$work/cmake_build"
"$work/cmake_build/stasis_consumer" || fail "the find_package build of the consumer failed its checks"

step "pkg-config: compile, link and run the same main.cpp"
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
pc_version=$(pkg-config --modversion stasis) || fail "pkg-config does not find stasis in $PKG_CONFIG_PATH"
[ "$pc_version" = "$version" ] || fail "pkg-config --modversion stasis = '$pc_version', expected '$version'"
cflags=$(pkg-config --cflags stasis)
libs=$(pkg-config --libs stasis)
static_libs=$(pkg-config --static --libs stasis)
echo "pkg-config --cflags --libs stasis: $cflags $libs"
case " $cflags " in *"$prefix"*) ;; *) fail "pkg-config --cflags stasis does not point into $prefix: $cflags" ;; esac
# shellcheck disable=SC2086  # the flags are word lists
run "$cxx" -std=c++20 -Wall -Wextra -Wpedantic -Werror -DEXPECTED_STASIS_VERSION="\"$pc_version\"" \
  $cflags -c "$project/main.cpp" -o "$work/main.o"
# shellcheck disable=SC2086
run "$cxx" "$work/main.o" $libs -o "$work/pkgconfig_consumer"
# shellcheck disable=SC2086
run "$cxx" "$work/main.o" $static_libs -o "$work/pkgconfig_consumer_static_flags"
"$work/pkgconfig_consumer" || fail "the pkg-config build of the consumer failed its checks"
"$work/pkgconfig_consumer_static_flags" >/dev/null || fail "the pkg-config --static build failed its checks"

step "docs/install.md shows the consumer's CMakeLists.txt and main.cpp as they are here"
doc=$source/docs/install.md
for f in CMakeLists.txt main.cpp; do
  # The code block right after the line `<!-- tests/install/external_project/FILE -->`.
  awk -v marker="<!-- tests/install/external_project/$f -->" '
    $0 == marker { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { exit }
    found == 2 { print }' "$doc" >"$work/doc_$f"
  diff -u "$project/$f" "$work/doc_$f" >&2 ||
    fail "docs/install.md's copy of tests/install/external_project/$f differs (diff above: - file, + doc)"
done

step "passed"
