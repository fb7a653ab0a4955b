#!/usr/bin/env bash
# Compiles every GPU kernel with NVRTC alone, on a machine without a GPU or
# CUDA driver: the tests named *compiles_without_a_gpu, with NVRTC from PyPI
# (nvidia-cuda-nvrtc-cu12, NVIDIA's licence; fetched once into
# ~/.cache/frontier/nvrtc, never into the repository). Those tests skip,
# saying so, where NVRTC is missing; here it is not, so they check. Fails on
# a kernel that does not compile (NVRTC's log) or a test that skipped.
# Builds the workspace's tests (minutes on two cores the first time).
#   scripts/check-kernels.sh
set -euo pipefail
cache=${XDG_CACHE_HOME:-$HOME/.cache}/frontier/nvrtc
lib=$cache/nvidia/cuda_nvrtc/lib
if [ ! -e "$lib/libnvrtc.so.12" ]; then
  mkdir -p "$cache"
  python3 -m pip download --quiet --no-deps --dest "$cache" 'nvidia-cuda-nvrtc-cu12==12.*'
  python3 - "$cache" <<'PY'
import glob, sys, zipfile
cache = sys.argv[1]
wheel = sorted(glob.glob(f"{cache}/nvidia_cuda_nvrtc_cu12-*.whl"))[-1]
zipfile.ZipFile(wheel).extractall(cache)
PY
fi
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=$(cargo test --release --workspace --no-fail-fast compiles_without_a_gpu -- --nocapture 2>&1) || {
  echo "$out" | grep -E "panicked|error" -A3
  exit 1
}
if echo "$out" | grep -q SKIPPED; then
  echo "$out" | grep SKIPPED
  exit 1
fi
echo "$out" | grep -E "^test .*compiles.* ok$"
