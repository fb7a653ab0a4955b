#!/usr/bin/env bash
# Issue 45 on the GPU machine's 16 host cores; builds nothing.
#   scripts/boggle-4x4-slice.sh PHASE ...
# Phases:
#   sample:N:SEED[:SWITCHOVER]  a 4x4 sample of N top-level classes (the 2025
#                               proof's buckets, target 3500): the projection
#   slice:K/N:SECONDS[:cost]    share K of N of the 4x4 proof for at most
#                               SECONDS, appended to
#                               results/boggle-4x4/share-K-of-N.txt (resumed
#                               when the file exists: run it again to go on);
#                               with :cost, a new run in the cost split order,
#                               in share-K-of-N-cost.txt (the first file was
#                               written in the degree order)
#   3x3                         the whole 3x3 proof, forcing off and on
#   gpu-test                    the GPU proof tests (GPU = CPU, unforced and
#                               forced; carry target/device/boggle-tests:
#                               cargo test --release -p frontier-boggle
#                               --test boggle --no-run, stripped)
#   gpu-sample:N:SEED:DEPTH:SWITCHOVER[:K/M]
#                               a 4x4 sample on the GPU, split at DEPTH cells,
#                               the host forcing above SWITCHOVER (0: none):
#                               the projection in GPU-hours; with K/M only share
#                               K of M of the sample (every Mth class from the
#                               Kth, itself a random sample: a sample too long
#                               for one call runs as M shares, whose
#                               projections average to the whole's)
#   gpu-share:K/N:DEPTH:SWITCHOVER:SECONDS
#                               share K of N of the whole 4x4 proof (every Nth
#                               class from the Kth) on the GPU, as gpu-sample
#                               runs a sample, for at most SECONDS: shares
#                               1/300, 101/300 and 201/300 make the 1% slice
#                               (share 1/100), three calls' worth
#   gpu-slice:K/N:SECONDS       share K of N on the GPU (depth 7, switchover
#                               16,000), appended to
#                               results/boggle-4x4/share-K-of-N-gpu.txt and
#                               resumed as slice: does (a GPU proof writes a
#                               class once the GPU has walked all of it)
#   gpu-profile:N:SEED:DEPTH:SWITCHOVER
#                               the same sample with Nsight Compute (ncu, where
#                               the machine has it and may read the counters)
#                               on the kernel's third launch: its speed of
#                               light, memory, warp states and occupancy, in
#                               $OUT/ncu-*.txt
# The binary is $FRONTIER_BIN (default target/device/frontier); $THREADS
# threads (default 16: fewer leave cores to a GPU run beside it); $GPU_BUILD,
# where set, is the gpu-* runs' --gpu-build (and ends their labels), and
# $GPU_DEEPER their --gpu-deeper (the same); each run's
# JSON, one stderr log and the results files are copied to $OUT. A results
# file is also kept in /tmp, and whichever copy holds more lines is resumed:
# a carried file replaces the machine's, and a stale carry to a warm machine
# would otherwise undo its last run. Prints a table last.
set -u
BIN=${FRONTIER_BIN:-target/device/frontier}
DICT=${FRONTIER_DICT:-data/boggle/enable2k.txt}
OUT=${OUT:-/tmp}
THREADS=${THREADS:-16}
BUCKETS="aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz"
summary=()
run() { # label, args...
  local label=$1; shift
  # One JSON file per run and one log for all (the device tool brings back
  # only a few files).
  local log="$OUT/$label.json"
  local start end rc
  start=$(date +%s.%N)
  "$BIN" --json boggle prove --dict "$DICT" "$@" > "$log" 2>> "$OUT/stderr.log"
  rc=$?
  end=$(date +%s.%N)
  local line
  line=$(python3 - "$log" <<'EOF'
import json, sys
try:
    d = json.loads(open(sys.argv[1]).read().splitlines()[0])
except Exception as e:
    print(f"no result ({e})"); sys.exit()
secs = d["class_seconds"]
proj = d.get("projected_core_hours")
err = d.get("projected_core_hours_stderr")
p = f"{proj:,.0f} ± {err:,.0f} core-h" if proj is not None else "no projection"
g = d.get("gpu")
def host_part(g):
    # Runs before these fields existed leave them out.
    hours = g.get("projected_host_thread_hours")
    threads = g.get("host_threads_to_keep_kernel_busy")
    if hours is None or threads is None:
        return ""
    return f"; host {hours:.0f} thread-h, {threads:.1f} threads keep the kernel busy"
if g:
    # A GPU proof keeps no class times (the GPU's part is not in them).
    print(f"classes {d['classes']}, boards {len(d['boards'])}, wall {d['seconds']:.1f} s, "
          f"kernel {g['kernel_seconds']:.1f} s, subclasses {d['subclasses'] / 1e9:.3f} G "
          f"({g['subclasses'] / 1e9:.3f} G on the GPU, {g['walked_on_cpu']} back on the CPU, {g.get('relaunched', 0)} relaunched), "
          f"projected {g['projected_gpu_hours']:.1f} ± {g.get('projected_gpu_hours_stderr') or 0:.1f} "
          f"GPU-h ({g['projected_kernel_hours']:.1f} "
          f"in the kernel{host_part(g)}), "
          f"complete {d['complete']}; host {g.get('host_class_seconds', 0):.0f} "
          f"thread-s (waiting {g.get('handover_wait_seconds', 0):.1f}), done at "
          f"{g.get('host_done_seconds', 0):.1f} s; GPU thread {g.get('launch_seconds', 0):.1f} s "
          f"(uploads {g.get('upload_seconds', 0):.1f} s"
          + (f", waiting for kernels {g['kernel_wait_seconds']:.1f} s" if 'kernel_wait_seconds' in g else "")
          + ")"
          + (f"; adding up {g['adding_seconds']:.1f} s" if 'adding_seconds' in g else "")
          + (f"; host threads' uploads {g['host_upload_seconds']:.1f} s of "
             f"{g['host_uploaded_bytes'] / 1e9:.1f} GB" if 'host_upload_seconds' in g else "")
          + (f" (+{g['host_kept_bytes'] / 1e9:.1f} GB kept on the device)" if g.get('host_kept_bytes') else ""))
else:
    print(f"classes {d['classes']} (+{d.get('classes_resumed', 0)} earlier), "
          f"boards {len(d['boards'])}, class mean {sum(secs) / max(len(secs), 1):.2f} s, "
          f"core-s {sum(secs):.0f}, {p}, complete {d['complete']}")
EOF
)
  summary+=("$(printf '%-26s rc=%-3s %7.1f s  %s' "$label" "$rc" "$(awk "BEGIN{print $end - $start}")" "$line")")
}
# A gpu-sample or gpu-profile phase's numbers (n, seed, depth,
# switchover) and the prove arguments of its sample, in gpu_args.
gpu_sample_args() {
  IFS=: read -r _ n seed depth switchover share <<< "$1"
  gpu_args=(--shape 4x4 --target 3500 --buckets "$BUCKETS" --threads "$THREADS"
    --sample "$n" --seed "$seed" --gpu --gpu-depth "$depth" --switchover "$switchover")
  [ -n "${share:-}" ] && gpu_args+=(--share "$share")
  [ -n "${GPU_BUILD:-}" ] && gpu_args+=(--gpu-build "$GPU_BUILD")
  [ -n "${GPU_DEEPER:-}" ] && gpu_args+=(--gpu-deeper "$GPU_DEEPER")
  return 0
}
# A share's results file results/boggle-4x4/NAME.txt in $file, the longer of
# it and its copy kept in /tmp in its place, and --resume in $resume when it
# exists. keep_results copies it back to /tmp and to $OUT after a run.
results_file() { # name
  file="results/boggle-4x4/$1.txt"
  kept="/tmp/frontier-boggle-$1.txt"
  mkdir -p results/boggle-4x4
  lines() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
  [ "$(lines "$kept")" -gt "$(lines "$file")" ] && cp "$kept" "$file"
  resume=()
  [ -f "$file" ] && resume=(--resume)
  return 0
}
keep_results() {
  [ -f "$file" ] && cp "$file" "$kept" && cp "$file" "$OUT/"
  return 0
}
for phase in "$@"; do
  case $phase in
    sample:*)
      IFS=: read -r _ n seed switchover <<< "$phase"
      extra=()
      [ -n "${switchover:-}" ] && extra=(--switchover "$switchover")
      run "4x4-sample-$n-$seed${switchover:+-sw$switchover}" --shape 4x4 --target 3500 \
        --buckets "$BUCKETS" --threads "$THREADS" --sample "$n" --seed "$seed" "${extra[@]}"
      ;;
    slice:*)
      IFS=: read -r _ share seconds fresh_order <<< "$phase"
      name="share-${share/\//-of-}${fresh_order:+-$fresh_order}"
      results_file "$name"
      # A results file resumes only in its own split order: files without
      # an 'order cost' line were written in the degree order.
      order=()
      if [ -n "${fresh_order:-}" ]; then
        order=(--order "$fresh_order")
      elif [ -f "$file" ] && ! head -9 "$file" | grep -qx 'order cost'; then
        order=(--order degree)
      fi
      run "4x4-slice-$name" --shape 4x4 --target 3500 --buckets "$BUCKETS" \
        --threads "$THREADS" --share "$share" --results "$file" "${resume[@]}" "${order[@]}" --max-seconds "$seconds"
      keep_results
      ;;
    gpu-slice:*)
      IFS=: read -r _ share seconds <<< "$phase"
      name="share-${share/\//-of-}-gpu"
      results_file "$name"
      gpu_args=(--shape 4x4 --target 3500 --buckets "$BUCKETS" --threads "$THREADS"
        --share "$share" --gpu --gpu-depth 7 --switchover 16000 --results "$file"
        "${resume[@]}" --max-seconds "$seconds")
      [ -n "${GPU_BUILD:-}" ] && gpu_args+=(--gpu-build "$GPU_BUILD")
      run "4x4-gpu-slice-$name" "${gpu_args[@]}"
      keep_results
      ;;
    3x3)
      run 3x3-unforced --shape 3x3 --target 500 --threads "$THREADS" --switchover 0
      run 3x3-forced --shape 3x3 --target 500 --threads "$THREADS"
      ;;
    gpu-test)
      start=$(date +%s.%N)
      FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 target/device/boggle-tests gpu_proofs \
        --test-threads 1 > "$OUT/gpu-test.log" 2>&1
      rc=$?
      summary+=("$(printf '%-26s rc=%-3s %7.1f s  %s' gpu-test "$rc" \
        "$(awk "BEGIN{print $(date +%s.%N) - $start}")" "$(grep 'test result' "$OUT/gpu-test.log")")")
      ;;
    gpu-sample:*)
      gpu_sample_args "$phase"
      run "4x4-gpu-sample-$n-$seed-d$depth-sw$switchover${share:+-share-${share/\//-of-}}${GPU_BUILD:+-$GPU_BUILD}${GPU_DEEPER:+-deeper-$GPU_DEEPER}" "${gpu_args[@]}"
      ;;
    gpu-share:*)
      IFS=: read -r _ share depth switchover seconds <<< "$phase"
      gpu_args=(--shape 4x4 --target 3500 --buckets "$BUCKETS" --threads "$THREADS"
        --share "$share" --gpu --gpu-depth "$depth" --switchover "$switchover"
        --max-seconds "$seconds")
      [ -n "${GPU_BUILD:-}" ] && gpu_args+=(--gpu-build "$GPU_BUILD")
      [ -n "${GPU_DEEPER:-}" ] && gpu_args+=(--gpu-deeper "$GPU_DEEPER")
      run "4x4-gpu-share-${share/\//-of-}-d$depth-sw$switchover${GPU_BUILD:+-$GPU_BUILD}" "${gpu_args[@]}"
      ;;
    gpu-profile:*)
      gpu_sample_args "$phase"
      label="ncu-$n-$seed-d$depth-sw$switchover"
      if ! command -v ncu > /dev/null; then
        summary+=("$(printf '%-26s no ncu on this machine' "$label")")
        continue
      fi
      start=$(date +%s.%N)
      # Clocks left alone (the device tool's METHOD.md); one launch, after
      # two that warm the caches and the host's pipeline.
      ncu --clock-control none --kernel-name prove_items --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section Occupancy --section LaunchStats --section SchedulerStats \
        "$BIN" --json boggle prove --dict "$DICT" "${gpu_args[@]}" > "$OUT/$label.txt" 2>&1
      rc=$?
      summary+=("$(printf '%-26s rc=%-3s %7.1f s  %s' "$label" "$rc" \
        "$(awk "BEGIN{print $(date +%s.%N) - $start}")" \
        "$(grep -m3 -E 'Duration|Memory Throughput|Compute \(SM\) Throughput' "$OUT/$label.txt" | tr -s ' ' | tr '\n' ';')")")
      ;;
    *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
echo "== $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
printf '%s\n' "${summary[@]}"
