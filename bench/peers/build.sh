#!/bin/sh
# Build the benchmark's compiled peers (bench/peers/README.md) into build/peers/ ($PEERS_OUT):
#   mobadj-godip  from a godip source tree or git repository ($GODIP_SRC), with the Go toolchain;
#   mobadj-dipcc  from Cicero's dipcc sources ($DIPCC_SRC), with g++, glog and pybind11.
# A peer whose toolchain or source is missing is skipped with a note saying why; the script
# never fails for that (make bench then says "not measured").
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT="${PEERS_OUT:-$ROOT/build/peers}"
mkdir -p "$OUT"

# copy_tree SRC DEST: the files of SRC (a work tree, or a git repository without one) to DEST
copy_tree() {
    rm -rf "$2" && mkdir -p "$2"
    if [ -d "$1/.git" ] || [ ! -d "$1/objects" ]; then
        cp -r "$1/." "$2/" && return 0
    fi
    # a bare repository: the files of HEAD (source files only; a missing large file is skipped)
    git -C "$1" ls-tree -r HEAD | while read -r _mode kind hash path; do
        [ "$kind" = blob ] || continue
        case "$path" in *.go|*.mod|*.sum|*.cc|*.h|*.hpp) ;; *) continue ;; esac
        mkdir -p "$2/$(dirname "$path")"
        git -C "$1" cat-file blob "$hash" >"$2/$path" 2>/dev/null || rm -f "$2/$path"
    done
}

build_godip() {
    if ! command -v go >/dev/null 2>&1; then
        echo "godip: skipped: no Go toolchain (Debian: apt-get install golang-go)"; return
    fi
    if [ -z "${GODIP_SRC:-}" ] || [ ! -e "${GODIP_SRC}" ]; then
        echo "godip: skipped: no source (GODIP_SRC=a checkout of github.com/zond/godip)"; return
    fi
    tree="$OUT/godip-src"
    copy_tree "$GODIP_SRC" "$tree"
    if [ ! -d "$tree/variants/classical" ]; then
        echo "godip: skipped: $GODIP_SRC holds no variants/classical"; return
    fi
    # Only the engine and the classical map are built: none of godip's module requirements
    # (web server, progress bars) is needed, so the module is built without them, offline.
    printf 'module github.com/zond/godip\n\ngo 1.19\n' >"$tree/go.mod"
    rm -f "$tree/go.sum"
    # the map pictures (generated, several MB) are not needed to adjudicate
    if [ ! -s "$tree/variants/classical/bindata.go" ]; then
        printf 'package classical\n\nimport "fmt"\n\n// Asset: the map pictures are not part of this build.\nfunc Asset(name string) ([]byte, error) { return nil, fmt.Errorf("%%s: not bundled", name) }\n' \
            >"$tree/variants/classical/bindata.go"
    fi
    mkdir -p "$tree/cmd/mobadj-godip"
    cp "$HERE/godip/main.go" "$tree/cmd/mobadj-godip/main.go"
    if (cd "$tree" && GOFLAGS=-mod=mod GOPROXY=off GOCACHE="$OUT/go-cache" \
            go build -o "$OUT/mobadj-godip" ./cmd/mobadj-godip); then
        echo "godip: built $OUT/mobadj-godip"
    else
        echo "godip: skipped: the build failed (above)"
    fi
}

build_dipcc() {
    cxx=${CXX:-g++}
    if ! command -v "$cxx" >/dev/null 2>&1; then
        echo "dipcc: skipped: no C++ compiler ($cxx)"; return
    fi
    if [ -z "${DIPCC_SRC:-}" ] || [ ! -e "${DIPCC_SRC}" ]; then
        echo "dipcc: skipped: no source (DIPCC_SRC=a checkout of github.com/facebookresearch/diplomacy_cicero)"; return
    fi
    tree="$OUT/dipcc-src"
    copy_tree "$DIPCC_SRC" "$tree"
    cc=$(find "$tree" -path '*dipcc/cc/game_state.cc' | head -n 1)
    if [ -z "$cc" ]; then
        echo "dipcc: skipped: $DIPCC_SRC holds no dipcc/dipcc/cc/game_state.cc"; return
    fi
    cc=$(dirname "$cc")
    if [ ! -f /usr/include/glog/logging.h ]; then
        echo "dipcc: skipped: no glog headers (Debian: apt-get install libgoogle-glog-dev)"; return
    fi
    pyinc=$(python3 -c "import sysconfig; print(sysconfig.get_paths()['include'])")
    if [ ! -f /usr/include/pybind11/pybind11.h ] && ! python3 -c "import pybind11" 2>/dev/null; then
        echo "dipcc: skipped: no pybind11 headers (Debian: apt-get install pybind11-dev)"; return
    fi
    pbinc=$(python3 -c "import pybind11; print(pybind11.get_include())" 2>/dev/null || echo /usr/include)
    # The game state and its adjudicator only: no Torch (the neural encoders), no Python module.
    if (cd "$cc" && "$cxx" -std=c++17 -O3 -DNDEBUG -I. -I"$pyinc" -I"$pbinc" "$HERE/dipcc/main.cc" \
            game_state.cc adjudicator.cc order.cc loc.cc unit.cc owned_unit.cc phase.cc \
            power.cc enums.cc util.cc checks.cc scoring.cc -o "$OUT/mobadj-dipcc" -lglog -lpthread); then
        echo "dipcc: built $OUT/mobadj-dipcc"
    else
        echo "dipcc: skipped: the build failed (above)"
    fi
}

build_godip
build_dipcc
