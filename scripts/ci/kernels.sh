#!/usr/bin/env bash
# Boots Debian's own kernels under qemu (software emulation, `-cpu max`: a KVM guest hangs on
# some hosts, and the release binary needs x86-64-v2) with this machine's files and cgroup v2
# alone, as every current distribution mounts it, and runs there a guest script: by default
# scripts/ci/guest_tests.sh, the sandbox's tests as root and as uid 65534, with and without a
# delegated cgroup, and an audit of the example contest.
#
#   debian-6.1   Debian 12's default kernel (linux-image-6.1.0-*-amd64-unsigned, bookworm)
#   debian-6.12  Debian 12's newer kernel (linux-image-6.12.*+deb12-amd64-unsigned,
#                bookworm-backports)
#
# The guest's root is this machine's `/`, shared read-only by 9p under an overlay on a tmpfs;
# the guest writes its results in a second share, OUT/KERNEL. Kernel packages are cached in
# target/kernels. Needs root; installs qemu-system-x86, busybox-static, kmod, cpio and xz-utils.
# The host's variables named GUEST_* are set in the guest too.
# Usage: scripts/ci/kernels.sh OUT GUEST-SCRIPT [KERNEL...]  (default: debian-6.1 debian-6.12)
# Exits 0 when the guest script exited 0 on every kernel.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
packages=(qemu-system-x86 busybox-static kmod cpio xz-utils)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
out=$(realpath -m "$1")
guest=$(realpath "$2")
shift 2
if [ $# -eq 0 ]; then
  set -- debian-6.1 debian-6.12
fi
cache=$PWD/target/kernels
mkdir -p "$cache" "$out"

# apt_in TOOL DIR SUITE ARGS...: apt-get or apt-cache with a sources list of Debian's SUITE
# alone, its state in DIR (the machine's own lists untouched).
apt_in() {
  local tool=$1 dir=$2 suite=$3
  shift 3
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  echo "deb http://deb.debian.org/debian $suite main" > "$dir/sources.list"
  "$tool" -q -o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=- \
    -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
    -o APT::Sandbox::User=root "$@"
}

# fetch NAME: the directory of kernel NAME's files (vmlinuz, initrd), downloaded and made once.
fetch() {
  local name=$1 suite pattern
  case $name in
    debian-6.1) suite=bookworm; pattern='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' ;;
    debian-6.12) suite=bookworm-backports; pattern='^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' ;;
    *) echo "kernels.sh: no kernel named $name" >&2; return 1 ;;
  esac
  local dir=$cache/$name
  if [ -f "$dir/vmlinuz" ] && [ -f "$dir/initrd" ]; then
    echo "$dir"
    return
  fi
  rm -rf "$dir"
  mkdir -p "$dir/apt" "$dir/deb"
  apt_in apt-get "$dir/apt" "$suite" update >/dev/null
  local package
  package=$(apt_in apt-cache "$dir/apt" "$suite" --names-only search "$pattern" 2>/dev/null \
    | awk '{print $1}' | sort -V | tail -n 1)
  [ -n "$package" ] || { echo "kernels.sh: no package matches $pattern in $suite" >&2; return 1; }
  (cd "$dir/deb" && apt_in apt-get "$dir/apt" "$suite" download "$package" >/dev/null)
  dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
  local version
  version=$(ls "$dir/root/lib/modules")
  cp "$dir/root/boot/vmlinuz-$version" "$dir/vmlinuz"
  depmod -b "$dir/root" "$version"
  initrd "$dir/root/lib/modules/$version" "$dir/initrd"
  echo "$package" > "$dir/package"
  rm -rf "$dir/root" "$dir/apt"
  echo "$dir"
}

# initrd MODULES FILE: an initramfs of busybox, the modules that mount 9p and overlayfs (those
# MODULES has as modules, with what they need, in order) and the init below.
initrd() {
  local modules=$1 file=$2 work
  work=$(mktemp -d)
  mkdir -p "$work/bin" "$work/lib/modules" "$work/proc" "$work/sys" "$work/dev" "$work/host" \
    "$work/rw" "$work/root"
  cp /usr/bin/busybox "$work/bin/busybox"
  local order=()
  add() {
    local line path deps d
    line=$(grep -E "^[^:]*/$1\.ko(\.xz)?:" "$modules/modules.dep") || return 0
    path=${line%%:*}
    deps=${line#*:}
    for d in $deps; do
      d=$(basename "$d"); d=${d%.xz}; add "${d%.ko}"
    done
    for d in "${order[@]}"; do [ "$d" = "$path" ] && return 0; done
    order+=("$path")
  }
  for m in virtio_pci 9pnet_virtio 9p overlay; do add "$m"; done
  : > "$work/modules"
  for p in "${order[@]}"; do
    local n
    n=$(basename "$p"); n=${n%.xz}
    if [[ $p == *.xz ]]; then xz -dc "$modules/$p" > "$work/lib/modules/$n"
    else cp "$modules/$p" "$work/lib/modules/$n"; fi
    echo "$n" >> "$work/modules"
  done
  cat > "$work/init" <<'INIT'
#!/bin/busybox sh
b=/bin/busybox
$b mount -t proc proc /proc
$b mount -t devtmpfs dev /dev
$b mount -t sysfs sys /sys
for n in $($b cat /modules); do $b insmod /lib/modules/$n; done
$b mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose host /host
$b mount -t tmpfs -o size=12g,mode=755 rw /rw
$b mkdir -p /rw/upper /rw/work
$b mount -t overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work overlay /root
$b mkdir -p /root/mnt/out
$b mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /root/mnt/out
$b mount --move /proc /root/proc
$b mount --move /dev /root/dev
$b mount --move /sys /root/sys
exec $b switch_root /root /bin/bash /mnt/out/boot.sh
INIT
  chmod +x "$work/init"
  (cd "$work" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$file"
  rm -rf "$work"
}

failed=()
for name in "$@"; do
  dir=$(fetch "$name")
  share=$out/$name
  rm -rf "$share"
  mkdir -p "$share"
  cp "$guest" "$share/guest.sh"
  # What the guest runs first: the machine's basic mounts, cgroup v2 alone, then the guest
  # script in the checkout, its exit code kept; then power off.
  cat > "$share/boot.sh" <<BOOT
#!/bin/bash
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
$(for v in "${!GUEST_@}"; do printf 'export %s=%q\n' "$v" "${!v}"; done)
# The checkout stays where it is when it lies under /tmp (a clone in a temporary
# directory), which the guest's own /tmp would hide.
mkdir -p /mnt/checkout
mount --bind $(printf %q "$PWD") /mnt/checkout
mount -t tmpfs -o mode=1777,size=8g tmpfs /tmp
mkdir -p $(printf %q "$PWD")
mount --bind /mnt/checkout $(printf %q "$PWD")
mount -t tmpfs -o mode=755 tmpfs /run
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
ip link set lo up
cd "$PWD"
uname -r > /mnt/out/kernel
bash /mnt/out/guest.sh /mnt/out > /mnt/out/guest.log 2>&1
echo \$? > /mnt/out/exit
sync
echo o > /proc/sysrq-trigger
BOOT
  echo "== $name: $(cat "$dir/package")"
  started=$(date +%s)
  # Hang guard: an hour a kernel (software emulation is some 20 times slower than this machine).
  timeout 3600 qemu-system-x86_64 -accel tcg,thread=multi -cpu max -smp "$(nproc)" -m 8192 \
    -nographic -no-reboot -nic none \
    -kernel "$dir/vmlinuz" -initrd "$dir/initrd" \
    -append "console=ttyS0 panic=-1 quiet" \
    -fsdev local,id=host,path=/,readonly=on,security_model=none,multidevs=remap \
    -device virtio-9p-pci,fsdev=host,mount_tag=host \
    -fsdev "local,id=out,path=$share,security_model=none" \
    -device virtio-9p-pci,fsdev=out,mount_tag=out > "$share/console.log" 2>&1 || true
  took=$(( $(date +%s) - started ))
  code=$(cat "$share/exit" 2>/dev/null || echo "none (the guest did not finish)")
  echo "   kernel $(cat "$share/kernel" 2>/dev/null || echo '?'), guest script exit $code, ${took} s"
  if [ "$code" != 0 ]; then
    tail -n 40 "$share/guest.log" 2>/dev/null || tail -n 40 "$share/console.log"
    failed+=("$name")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "kernels.sh: the guest script failed on ${failed[*]}" >&2
  exit 1
fi
