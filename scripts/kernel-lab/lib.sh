# lib.sh - shared settings and helpers for the kernel lab (sourced, not run)
#
# Cache layout (outside the repository, never committed):
#   $LAB_CACHE/debs/           .debs from apt-get download
#   $LAB_CACHE/kernels/<flavor>/{vmlinuz,config,kernel.env}   flavor = rt | stock
#   $LAB_CACHE/busybox/busybox busybox-static binary
#   $LAB_CACHE/initramfs/      base-<flavor>.cpio.gz (busybox + /init + /boot/config)
#   $LAB_CACHE/runs/           default --out directories of boot

LAB_CACHE=${RTMEASURE_LAB_CACHE:-/var/cache/rtmeasure-lab}
LAB_DIR=$(cd "$(dirname "$0")" && pwd)
REPO_DIR=$(cd "$LAB_DIR/../.." && pwd)
LAB_PROG=${0##*/}

# die MESSAGE: one-line error, exit status 2
die() {
    echo "kernel-lab/$LAB_PROG: error: $*" >&2
    exit 2
}

info() {
    echo "kernel-lab/$LAB_PROG: $*" >&2
}

# flavor -> metapackage
meta_pkg() {
    case "$1" in
        rt) echo linux-image-rt-amd64 ;;
        stock) echo linux-image-amd64 ;;
        *) die "unknown kernel flavor '$1' (use rt or stock)" ;;
    esac
}

need_cmd() {
    command -v "$1" >/dev/null 2>&1 || die "missing command '$1'${2:+ (install package $2)}"
}

# mkcpio DIR FILE: pack DIR as an uncompressed newc cpio (owner root)
mkcpio() {
    _bb=$LAB_CACHE/busybox/busybox
    [ -x "$_bb" ] || die "busybox not in cache (run scripts/kernel-lab/fetch)"
    (cd "$1" && find . | LC_ALL=C sort | "$_bb" cpio -o -H newc -R 0:0 2>/dev/null) > "$2" ||
        die "cannot create cpio archive $2"
}

# print_help: the comment block at the top of the calling script
print_help() {
    awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
}
