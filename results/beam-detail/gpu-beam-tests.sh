# Sourced by the call scripts here: the GPU beam's rank and bound tests
# (FRONTIER_REQUIRE_GPU=1, target/device/tiles-tests), each log in $out, a line each.
for t in gpu_ranks_equal_cpu_ranks gpu_beam_ranked_by_conflicts_shortens_korfs_100_and_keeps_sound_bounds; do
  FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/tiles-tests "$t" --exact > "$out/$t.txt" 2>&1
  echo "$t: rc=$? ($(grep -o 'test result.*' "$out/$t.txt"))"
done
