# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Shared helper, sourced (not run) by tests/real/kernel-check.sh and
# bench/layout.sh: finds, or fetches and unpacks, Debian's real kernels with
# DWARF (the linux-image-*-dbg packages) so structlint can be checked and
# timed on real inputs.
#
#   . tests/real/kernels.sh
#   vmlinux=$(slt_kernel_vmlinux 'linux-image-6.1.0-*-cloud-amd64-dbg') || exit 2
#
# Environment:
#   STRUCTLINT_KERNEL_CACHE   cache directory (default /var/tmp/structlint-kernels).
#                             A vmlinux is looked for, and unpacked, under
#                             $STRUCTLINT_KERNEL_CACHE/x/usr/lib/debug/boot/.
#   STRUCTLINT_KERNEL_REFRESH=1  ask apt for a newer package even when one
#                             matching kernel is already cached.
#   STRUCTLINT_KEEP_DEBS=1    keep the downloaded .deb (default: deleted once
#                             unpacked; they are ~300 MB each).
#
# Only the vmlinux is taken out of each package (dpkg-deb --fsys-tarfile |
# tar), not the ~1.7 GB of module debug info beside it.  The vmlinux must be
# used as is: its .rela.debug_* sections are not to be applied.
#
# All progress goes to stderr; the functions print only the resulting path.

# The two Debian 12 kernel series the checks and the benchmark run on.
# shellcheck disable=SC2034  # used by the scripts that source this file
SLT_KERNEL_PKGS=(
	'linux-image-6.1.0-*-cloud-amd64-dbg'
	'linux-image-6.12.*+deb12-cloud-amd64-dbg'
)

slt_kernel_cache_dir() {
	printf '%s\n' "${STRUCTLINT_KERNEL_CACHE:-/var/tmp/structlint-kernels}"
}

# Directory, inside the cache, where the dbg packages put vmlinux.
slt_kernel_boot_dir() {
	printf '%s/x/usr/lib/debug/boot\n' "$(slt_kernel_cache_dir)"
}

# slt_kernel_cached PKG_GLOB: newest cached vmlinux for the package glob
# (linux-image-X-dbg ships usr/lib/debug/boot/vmlinux-X); fails if none.
slt_kernel_cached() {
	local rel=${1#linux-image-} f best
	rel=${rel%-dbg}
	# $rel unquoted on purpose: it is the glob.
	best=$(for f in "$(slt_kernel_boot_dir)"/vmlinux-$rel; do
		[[ -f $f ]] && printf '%s\n' "$f"
	done | sort -V | tail -n 1)
	[[ -n $best ]] && printf '%s\n' "$best"
}

# slt_kernel_newest_pkg PKG_GLOB: the newest package name matching the glob
# that apt-cache offers (version order of the names: 6.1.0-57 > 6.1.0-9).
# Runs `apt-get update` once per shell if nothing matches.
slt_kernel_newest_pkg() {
	local glob=$1 p best
	_slt_match() {
		apt-cache pkgnames linux-image- 2>/dev/null | while read -r p; do
			# shellcheck disable=SC2053
			[[ $p == $glob ]] && echo "$p"
		done | sort -V | tail -n 1
	}
	best=$(_slt_match)
	if [[ -z $best && -z ${_SLT_APT_UPDATED:-} ]]; then
		echo "kernels: no $glob in the apt lists; running apt-get update" >&2
		apt-get -q update >&2 || return 1
		_SLT_APT_UPDATED=1
		best=$(_slt_match)
	fi
	[[ -n $best ]] || { echo "kernels: apt offers no package matching $glob" >&2; return 1; }
	printf '%s\n' "$best"
}

# slt_kernel_fetch PKG: download PKG into the cache and unpack its vmlinux.
slt_kernel_fetch() {
	local pkg=$1 cache debdir deb boot
	cache=$(slt_kernel_cache_dir)
	debdir=$cache/deb
	boot=$(slt_kernel_boot_dir)
	mkdir -p "$debdir" "$boot" || return 1
	echo "kernels: downloading $pkg (~300 MB) into $debdir" >&2
	# apt-get download writes into the current directory.  As root it warns
	# that the _apt user cannot write there; the download still happens.
	(cd "$debdir" && apt-get -q download "$pkg") >&2 || {
		echo "kernels: apt-get download $pkg failed (try: apt-get update)" >&2
		return 1
	}
	# shellcheck disable=SC2012  # apt names .debs NAME_VERSION_ARCH.deb
	deb=$(ls -t "$debdir/${pkg}"_*.deb 2>/dev/null | head -n 1)
	[[ -n $deb ]] || { echo "kernels: no .deb for $pkg in $debdir" >&2; return 1; }
	echo "kernels: unpacking the vmlinux of $(basename "$deb")" >&2
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$cache/x" --wildcards './usr/lib/debug/boot/vmlinux-*' || {
		echo "kernels: cannot unpack $deb (disk full? corrupt download?)" >&2
		return 1
	}
	[[ -n ${STRUCTLINT_KEEP_DEBS:-} ]] || rm -f "$deb"
}

# slt_kernel_vmlinux PKG_GLOB: path of the vmlinux for the newest package
# matching PKG_GLOB, fetched on first use.  Prints the path; returns 1 (with
# a message on stderr) when it cannot be had.
slt_kernel_vmlinux() {
	local glob=$1 f pkg
	if [[ -z ${STRUCTLINT_KERNEL_REFRESH:-} ]] && f=$(slt_kernel_cached "$glob"); then
		printf '%s\n' "$f"
		return 0
	fi
	pkg=$(slt_kernel_newest_pkg "$glob") || return 1
	f=$(slt_kernel_boot_dir)/vmlinux-${pkg#linux-image-}
	f=${f%-dbg}
	if [[ ! -f $f ]]; then
		slt_kernel_fetch "$pkg" || return 1
	fi
	[[ -f $f ]] || { echo "kernels: $pkg did not contain ${f#"$(slt_kernel_cache_dir)"/x}" >&2; return 1; }
	printf '%s\n' "$f"
}
