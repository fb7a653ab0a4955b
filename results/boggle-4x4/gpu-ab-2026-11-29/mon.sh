#!/usr/bin/env bash
# Every 15 s: GPU use, host memory and the busiest threads of the frontier process.
start=$(date +%s)
while true; do
  sleep 15
  pid=$(pgrep -f "frontier-diag --json" | head -1)
  {
    echo "=== $(( $(date +%s) - start )) s"
    nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader
    free -g | sed -n 2p
    [ -n "$pid" ] && top -H -b -n1 -p "$pid" | sed -n 7,14p
    [ -n "$pid" ] && for t in /proc/$pid/task/*; do echo "$(cat $t/comm) $(cut -d' ' -f3 $t/stat) $(cat $t/wchan 2>/dev/null)"; done | sort | uniq -c | sort -rn | head -8
  } >> "$1" 2>&1
done
