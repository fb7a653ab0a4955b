// Pending (sixteenth session, not yet run): host-to-device copy bandwidth from 1-64 threads,
// pinned DMA alone and staged as gpu_prove/arena_upload.rs does. To run: copy to
// framework/examples/h2d_probe.rs, `cargo build --release -p frontier-core --example h2d_probe`,
// strip target/release/examples/h2d_probe into target/device/ and carry it (nvidia-h200-x4,
// CUDA_VISIBLE_DEVICES=0). Tells whether the link (about 5 GB/s in aggregate in call R) bounds.
//! Temporary probe (not committed): host-to-device copy bandwidth from
//! many threads, pinned DMA alone and staged through pinned buffers.
use std::sync::Arc;
use std::time::Instant;

use frontier_core::gpu::cudarc::driver::sys::CUevent_flags;
use frontier_core::gpu::cudarc::driver::{result, CudaContext, DevicePtrMut};
use frontier_core::gpu::{driver_present, Gpu};

const STAGE: usize = 1 << 22; // words, 16 MiB

fn run(ctx: &Arc<CudaContext>, threads: usize, words: usize, staged: bool) -> f64 {
    let barrier = std::sync::Barrier::new(threads + 1);
    let start = std::sync::Mutex::new(None);
    let ends = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let stream = ctx.new_stream().unwrap();
                let host: Vec<u32> = (0..words as u32).collect();
                let mut bufs = unsafe { [ctx.alloc_pinned::<u32>(STAGE).unwrap(), ctx.alloc_pinned::<u32>(STAGE).unwrap()] };
                let mut dev = unsafe { stream.alloc::<u32>(words) }.unwrap();
                let mut events: [Option<_>; 2] = [None, None];
                barrier.wait();
                {
                    let (base, _w) = dev.device_ptr_mut(&stream);
                    for (k, chunk) in host.chunks(STAGE).enumerate() {
                        let at = k % 2;
                        if let Some(e) = events[at].take() {
                            let e: frontier_core::gpu::cudarc::driver::CudaEvent = e;
                            e.synchronize().unwrap();
                        }
                        let b = bufs[at].as_mut_slice().unwrap();
                        if staged {
                            b[..chunk.len()].copy_from_slice(chunk);
                        }
                        let off = (k * STAGE * 4) as u64;
                        unsafe { result::memcpy_htod_async(base + off, &b[..chunk.len()], stream.cu_stream()) }.unwrap();
                        events[at] = Some(stream.record_event(Some(CUevent_flags::CU_EVENT_DISABLE_TIMING)).unwrap());
                    }
                }
                stream.synchronize().unwrap();
                ends.lock().unwrap().push(Instant::now());
            });
        }
        barrier.wait();
        *start.lock().unwrap() = Some(Instant::now());
    });
    let start = start.into_inner().unwrap().unwrap();
    let end = ends.into_inner().unwrap().into_iter().max().unwrap();
    let secs = end.duration_since(start).as_secs_f64();
    (threads * words * 4) as f64 / secs / 1e9
}

fn main() {
    if !driver_present() {
        println!("no GPU");
        return;
    }
    let gpu = Gpu::open(0).unwrap();
    println!("device {}", gpu.name);
    let words = 1 << 28; // 1 GiB a thread
    for &threads in &[1usize, 4, 16, 32, 64] {
        let dma = run(&gpu.ctx, threads, words / 4, false);
        let staged = run(&gpu.ctx, threads, words / 4, true);
        println!("threads {threads:3}: pinned DMA {dma:6.1} GB/s, staged {staged:6.1} GB/s (256 MiB a thread)");
    }
}
