#!/usr/bin/env bash
# `make pi-check`: install and run Hearth in an emulated arm64 Debian bookworm (debootstrap + qemu-user-static),
# the way README "Raspberry Pi" says, and report each step's time and what installed from wheels vs compiled.
# Slow (everything arm64 runs under qemu) and for correctness only; needs root. Not part of `make test`.
#   PI_ROOT   the arm64 root (default /var/tmp/hearth-pi/root; reused when already built)
#   PI_LOG    full output of every step (default /var/tmp/hearth-pi/pi-check.log)
#   PI_MIRROR Debian mirror (default http://deb.debian.org/debian)
#   PI_HOST_PYTHON  a Python on this machine with Hearth installed, to speak the test turn (default .venv's)
#   PI_CPU    the CPU qemu emulates: cortex-a72 (Raspberry Pi 4, default) or cortex-a76 (Raspberry Pi 5)
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
ROOT=${PI_ROOT:-/var/tmp/hearth-pi/root}
LOG=${PI_LOG:-/var/tmp/hearth-pi/pi-check.log}
MIRROR=${PI_MIRROR:-http://deb.debian.org/debian}
APP=/opt/hearth  # inside the root
PI_CPU=${PI_CPU:-cortex-a72}
case $PI_CPU in cortex-a72|cortex-a76) ;; *) echo "pi-check: PI_CPU must be cortex-a72 or cortex-a76" >&2; exit 2;; esac
DEBS=(python3-venv espeak-ng sox libportaudio2 ca-certificates)  # README "Raspberry Pi" (git: we copy the tree)
SUMMARY=()
MOUNTS=()

[ "$(id -u)" -eq 0 ] || { echo "pi-check: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
for c in debootstrap update-binfmts chroot; do
  command -v "$c" >/dev/null || { echo "pi-check: needs $c (apt install debootstrap qemu-user-static binfmt-support)" >&2; exit 2; }
done
mkdir -p "$(dirname "$LOG")" && : >"$LOG"

report() {
  echo; echo "pi-check summary (full log: $LOG)"
  printf '  %s\n' "${SUMMARY[@]}"
}
cleanup() {
  for ((i=${#MOUNTS[@]}-1; i>=0; i--)); do umount -l "${MOUNTS[$i]}" 2>/dev/null; done
}
trap cleanup EXIT

# step NAME CMD...: run, time, log; stop at the first failure (later steps need the earlier ones) unless
# KEEP_GOING=1 (the assistant's commands, each worth seeing on its own).
FAILED=0
step() {
  local name=$1; shift
  local t0=$SECONDS
  echo "=== $name" >>"$LOG"
  printf 'pi-check: %-34s ... ' "$name"
  if "$@" >>"$LOG" 2>&1; then
    local s="ok     $(printf '%5ss' $((SECONDS - t0)))  $name"
    echo "ok ($((SECONDS - t0)) s)"; SUMMARY+=("$s")
  else
    local rc=$?
    echo "FAILED ($((SECONDS - t0)) s, exit $rc; see $LOG)"; SUMMARY+=("FAILED $(printf '%5ss' $((SECONDS - t0)))  $name (exit $rc)")
    tail -n 25 "$LOG" | sed 's/^/    | /'
    FAILED=1
    [ "${KEEP_GOING:-0}" = 1 ] || { report; exit 1; }
  fi
}

bind() {  # bind SRC (same path inside the root), read-only where asked
  local src=$1 ro=${2:-}
  mkdir -p "$ROOT$src"
  mountpoint -q "$ROOT$src" && return 0
  mount --bind "$src" "$ROOT$src" && MOUNTS+=("$ROOT$src")
  [ -z "$ro" ] || mount -o remount,bind,ro "$ROOT$src"
}

enable_binfmt() {
  mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  update-binfmts --enable qemu-aarch64 || true
  grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64
}

build_root() {
  if [ -f "$ROOT/.pi-check-debootstrap" ]; then echo "reusing $ROOT"; return 0; fi
  debootstrap --arch=arm64 --variant=minbase bookworm "$ROOT" "$MIRROR" && touch "$ROOT/.pi-check-debootstrap"
}

mount_root() {
  for d in proc sys dev dev/pts; do
    mkdir -p "$ROOT/$d"; mountpoint -q "$ROOT/$d" || { mount --bind "/$d" "$ROOT/$d" && MOUNTS+=("$ROOT/$d"); }
  done
  cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
  arm_cpuinfo
}

# qemu-user 7.2 (bookworm's; newer releases write an ARM one) hands an arm64 program the host's /proc/cpuinfo.
# onnxruntime (piper's voice, the Silero VAD) parses it at import with pytorch/cpuinfo, finds no ARM core in it
# and dereferences NULL: `import onnxruntime` dies with SIGSEGV. A Pi's kernel writes an ARM /proc/cpuinfo, so
# inside the root only, it is replaced by what a Pi shows for the CPU qemu emulates (PI_CPU; its MIDR is qemu's
# for that model), one entry per CPU this machine has (the root's /sys is this machine's).
arm_cpuinfo() {
  local f n i
  f=$(dirname "$ROOT")/cpuinfo-$PI_CPU
  n=$(nproc --all)
  {
    for ((i = 0; i < n; i++)); do
      case $PI_CPU in
        cortex-a72) printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\nCPU revision\t: 3\n\n' "$i";;
        cortex-a76) printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x4\nCPU part\t: 0xd0b\nCPU revision\t: 1\n\n' "$i";;
      esac
    done
    case $PI_CPU in
      cortex-a72) printf 'Revision\t: c03114\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4 (emulated)\n';;
      cortex-a76) printf 'Revision\t: d04170\nModel\t\t: Raspberry Pi 5 Model B Rev 1.0 (emulated)\n';;
    esac
  } >"$f"
  mountpoint -q "$ROOT/proc/cpuinfo" && return 0
  mount --make-private "$ROOT/proc"  # so the file below never shows through to this machine's /proc
  mount --bind "$f" "$ROOT/proc/cpuinfo" && MOUNTS+=("$ROOT/proc/cpuinfo")
  grep -q "^CPU part" "$ROOT/proc/cpuinfo"
}

# pip inside the root finds nothing without this machine's pip settings: its config files, every file they
# (or the PIP_* environment) name (a certificate, a constraints file) and every local index or wheel dir.
PIP_ENV=()
copy_pip_settings() {
  local files=(/etc/pip.conf /etc/xdg/pip/pip.conf "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf" ${PIP_CONFIG_FILE:-})
  local f v p
  for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    local dst=$f
    case $f in "$HOME"/*) dst=/root/${f#"$HOME"/};; esac
    mkdir -p "$ROOT$(dirname "$dst")" && cp -L "$f" "$ROOT$dst" && echo "copied $f"
  done
  local values
  values=$( { cat "${files[@]}" 2>/dev/null | sed -n 's/^[^#=]*=\s*//p'; env | sed -n 's/^PIP_[A-Z_]*=//p'; } | tr ' ' '\n')
  for v in $values; do
    p=${v#file://}
    case $p in /*) ;; *) continue;; esac
    p=${p%/}
    [ "$(basename "$p")" = simple ] && p=$(dirname "$p")  # a local index's links point beside simple/
    if [ -d "$p" ]; then bind "$p" ro && echo "bound $p"
    elif [ -f "$p" ]; then mkdir -p "$ROOT$(dirname "$p")" && cp -L "$p" "$ROOT$p" && echo "copied $p"; fi
  done
  while IFS= read -r line; do PIP_ENV+=("$line"); done < <(env | grep '^PIP_' || true)
  return 0
}

in_root() {
  QEMU_CPU=$PI_CPU chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb QEMU_CPU="$PI_CPU" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${PIP_ENV[@]}" "$@"
}

apt_install() {
  in_root apt-get -o DPkg::Lock::Timeout=900 update -q && in_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "${DEBS[@]}"
}

copy_tree() {
  rm -rf "$ROOT$APP" && mkdir -p "$ROOT$APP"
  git -C "$REPO" ls-files -co --exclude-standard -z | tar -C "$REPO" --null -T - -cf - | tar -C "$ROOT$APP" -xf -
}

PIP_REPORT=/tmp/pip-report.json
pip_install() {
  in_root sh -c "cd $APP && { [ -x .venv/bin/python ] || python3 -m venv .venv; } && \
    .venv/bin/python -m pip install -q --upgrade pip && \
    .venv/bin/python -m pip install --report $PIP_REPORT -e '.[small-llm]'"
}

# A package with no aarch64 wheel would have to compile: with the README's packages alone that fails; then
# the compilers are added and it is tried again, and the summary says so. (Last run: nothing compiled.)
pip_install_or_compile() {
  pip_install 2>&1 | tee /tmp/pi-check-pip.out
  [ "${PIPESTATUS[0]}" -eq 0 ] && return 0
  grep -qE "Building wheel for|gcc|g\+\+|Python.h" /tmp/pi-check-pip.out || return 1
  echo "pi-check: pip install failed with the README's packages; adding build-essential python3-dev"
  SUMMARY+=("NOTE          pip install needed compilers (build-essential python3-dev) on top of the README's packages")
  in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends build-essential python3-dev \
    && pip_install
}

wheels_vs_compiled() {  # from pip's install report: what came as a wheel for this platform, what was built
  in_root $APP/.venv/bin/python - "$PIP_REPORT" <<'EOF'
import json, sys
items = json.load(open(sys.argv[1]))["install"]
built = [f"{i['metadata']['name']} {i['metadata']['version']}" for i in items
         if not i["download_info"]["url"].endswith(".whl") and "dir_info" not in i["download_info"]]
wheels = [i for i in items if i["download_info"]["url"].endswith(".whl")]
native = sorted(i["metadata"]["name"] for i in wheels if "aarch64" in i["download_info"]["url"])
print(f"{len(wheels)} wheels ({len(native)} aarch64: {', '.join(native)}); compiled from source: "
      f"{', '.join(built) or 'nothing'}")
EOF
}

CFG=$APP/pi-check.yaml
write_config() {  # the Pi profile, with room for emulation's slowness
  cat >"$ROOT$CFG" <<'EOF'
llm:
  bundled_model: qwen2.5-coder-0.5b
  threads: 4
  context: 4096
  timeout_s: 1800
  start_timeout_s: 1800
  keep_alive_s: 0
EOF
}

speech() {  # the user's turn, spoken with piper on this machine (the chroot's own piper is what is tested later)
  local py=${PI_HOST_PYTHON:-$REPO/.venv/bin/python}
  mkdir -p "$ROOT/tmp/pi-check"
  PYTHONPATH="$REPO" "$py" -c "
from pathlib import Path
from assistant.demo_voice import speak_lines
speak_lines(['My sister Anna lives in Porto.'], Path('$ROOT/tmp/pi-check'))"
}

A=(env HEARTH_DATA_DIR=/root/hearth-data $APP/.venv/bin/assistant --config $CFG)
step "binfmt_misc + qemu-aarch64"        enable_binfmt
step "debootstrap bookworm arm64"        build_root
step "mounts, resolv.conf, /proc/cpuinfo" mount_root
step "apt: ${DEBS[*]}"                   apt_install
# after apt: its ca-certificates rewrites the bundle, and pip needs this machine's (PIP_CERT names it)
step "pip settings into the root"        copy_pip_settings
step "copy the working tree to $APP"     copy_tree
step "pip install -e '.[small-llm]'"     pip_install_or_compile
SUMMARY+=("       $(wheels_vs_compiled 2>>"$LOG")")
write_config
step "speech for the --wav turn (host)"  speech
KEEP_GOING=1
step "assistant doctor"                  in_root "${A[@]}" doctor
# doctor only finds the wake-word package; loading its model is what needs a native TFLite library
step "wake word model loads (hey_jarvis)" in_root sh -c "cd $APP && .venv/bin/python -c \
  'from audio.wakeword import create_wake_detector; print(create_wake_detector(\"hey_jarvis\").phrase)'"
step "assistant memory add"              in_root "${A[@]}" memory add Anna lives_in Porto
step "assistant memory show"             in_root "${A[@]}" memory show Anna
step "assistant run --wav (one turn)"    in_root "${A[@]}" run --wav /tmp/pi-check/user-01.wav --out-dir /tmp/pi-check/out
step "assistant ask"                     in_root "${A[@]}" ask "Where does Anna live?"
report
exit "$FAILED"
