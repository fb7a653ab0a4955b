#!/bin/bash
P=$(dirname "$0")/h2d_probe
nvidia-smi topo -m 2>&1 | head -8
bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader -i 0 | tr A-Z a-z | sed 's/^0000//')
local=$(cat /sys/bus/pci/devices/$bus/local_cpulist); node=$(cat /sys/bus/pci/devices/$bus/numa_node)
echo "gpu $bus node $node local $local"; for n in /sys/devices/system/node/node*; do echo "$n $(cat $n/cpulist)"; done
remote=""; for n in /sys/devices/system/node/node*; do c=$(cat $n/cpulist); [ "$c" != "$local" ] && [ -z "$remote" ] && remote=$c; done
echo "remote $remote"
t() { timeout 30 "$@" 2>&1 | tail -1; }
t $P 1 dma 2; t $P 1 dma 2; t $P 16 dma 2; t $P 64 dma 2
t $P 16 dma 2 $local; t $P 16 dma 2 $remote
t taskset -c $local $P 16 dma 2; t taskset -c $remote $P 16 dma 2
t taskset -c $local $P 4 dma 2; t taskset -c $remote $P 1 dma 2
t $P 1 dma 128
POOL=8 t $P 64 staged 0 $local; POOL=8 t $P 64 staged 0 $remote; POOL=16 t $P 64 staged 0 $local
t $P 64 staged 2 $local; t $P 64 staged 2
