//! A cache prefetch hint, for loops whose loads would otherwise wait on
//! each other: the pattern database builds (tiles) and the level-by-level
//! tree merges (Boggle) ask for lines several iterations ahead.

/// Hints the CPU to start loading `value`'s cache line; does nothing off
/// x86_64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it never faults, even on bad addresses,
    // and SSE is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
