#!/usr/bin/env bash
# ptxas.sh — prints the path of an NVIDIA ptxas, fetching one if needed.
#
# Order: $JITLINT_PTXAS if set; ptxas on PATH; the cache folder
# ($JITLINT_CUDA_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/jitlint/cuda-11.8/bin);
# otherwise it downloads Debian's nvidia-cuda-toolkit (non-free; CUDA 11.8,
# whose ptxas assembles for sm_50 … sm_90 on a machine without a GPU) with
# apt-get download and unpacks it with dpkg -x, keeping only ptxas,
# cuobjdump and nvdisasm (about 70 MB) in the cache folder. Nothing is
# installed: apt runs with its own sources and lists in a temporary folder,
# made from the system's Debian sources with the non-free component added,
# so the system's apt configuration is left as it is.
#
# Usage:  export JITLINT_PTXAS=$(scripts/ptxas.sh)
#         go test ./jit/gpu -run PTXAS -v
# Needs a Debian (or Debian-based) system with apt-get and dpkg; takes
# about 10 s the first time (an 84 MB download), nothing afterwards.
set -euo pipefail

if [ -n "${JITLINT_PTXAS:-}" ]; then
	[ -x "$JITLINT_PTXAS" ] || { echo "ptxas.sh: JITLINT_PTXAS=$JITLINT_PTXAS is not an executable" >&2; exit 1; }
	echo "$JITLINT_PTXAS"
	exit 0
fi
if p=$(command -v ptxas); then
	echo "$p"
	exit 0
fi
cache=${JITLINT_CUDA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/jitlint/cuda-11.8/bin}
if [ -x "$cache/ptxas" ]; then
	echo "$cache/ptxas"
	exit 0
fi

command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
	{ echo "ptxas.sh: no ptxas on PATH and no apt-get/dpkg to fetch one; install the CUDA toolkit or set JITLINT_PTXAS" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/sources" "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/deb" "$tmp/root"
# The system's Debian sources, with non-free added to each entry.
n=0
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	grep -qi debian "$f" || continue
	case "$f" in
	*.sources) sed '/^Components:/{/non-free\([^-]\|$\)/!s/$/ non-free/}' "$f" >"$tmp/sources/$n.sources" ;;
	*) sed -E '/^deb /{/ non-free( |$)/!s/$/ non-free/}' "$f" >"$tmp/sources/$n.list" ;;
	esac
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "ptxas.sh: no Debian apt sources found in /etc/apt" >&2; exit 1; }
apt=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$tmp/sources"
	-o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache" -o "Debug::NoLocking=1"
	-o "APT::Sandbox::User=$(id -un)")
echo "ptxas.sh: fetching nvidia-cuda-toolkit from Debian non-free (about 84 MB)…" >&2
apt-get -qq "${apt[@]}" update >&2
(cd "$tmp/deb" && apt-get -qq "${apt[@]}" download nvidia-cuda-toolkit >&2)
dpkg -x "$tmp"/deb/nvidia-cuda-toolkit_*.deb "$tmp/root"
mkdir -p "$cache"
for b in cuobjdump nvdisasm ptxas; do # ptxas last: its presence means the cache is complete
	install -m 755 "$tmp/root/usr/bin/$b" "$cache/$b.new"
	mv "$cache/$b.new" "$cache/$b"
done
"$cache/ptxas" --version | tail -1 >&2
echo "$cache/ptxas"
