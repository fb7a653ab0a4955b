//! Temporary probe (not committed): host-to-device copy bandwidth.
//! Usage: h2d_probe THREADS MODE BUFS [STAGE_CPUS]
//!   MODE: dma (copy from pinned buffers, no fill) | staged (fill, then copy)
//!   BUFS: per-thread buffers when POOL unset; with POOL=K env, K buffers shared
//!   STAGE_CPUS: cpu list (e.g. 0-31) the allocating thread is pinned to.
use std::sync::{Arc, Mutex};
use std::time::Instant;

use frontier_core::gpu::cudarc::driver::sys::CUevent_flags;
use frontier_core::gpu::cudarc::driver::{result, CudaContext, CudaEvent, DevicePtrMut, PinnedHostSlice};
use frontier_core::gpu::{driver_present, Gpu};

const STAGE: usize = 1 << 22; // words, 16 MiB
const WORDS: usize = 1 << 26; // 256 MiB a thread

fn parse_cpus(list: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in list.trim().split(',') {
        if let Some((a, b)) = part.split_once('-') {
            out.extend(a.parse::<usize>().unwrap()..=b.parse::<usize>().unwrap());
        } else if !part.is_empty() {
            out.push(part.parse().unwrap());
        }
    }
    out
}

fn pin_self(cpus: &[usize]) {
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus {
            libc::CPU_SET(c, &mut set);
        }
        assert_eq!(libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set), 0);
    }
}

struct Buf(PinnedHostSlice<u32>, Option<CudaEvent>);

fn alloc(ctx: &Arc<CudaContext>, n: usize, cpus: Option<&[usize]>) -> Vec<Buf> {
    let ctx = ctx.clone();
    let cpus = cpus.map(|c| c.to_vec());
    std::thread::spawn(move || {
        if let Some(c) = cpus {
            pin_self(&c);
        }
        ctx.bind_to_thread().unwrap();
        (0..n).map(|_| {
            let mut b = unsafe { ctx.alloc_pinned::<u32>(STAGE).unwrap() };
            b.as_mut_slice().unwrap().fill(1);
            Buf(b, None)
        }).collect()
    }).join().unwrap()
}

fn main() {
    if !driver_present() {
        println!("no GPU");
        return;
    }
    let args: Vec<String> = std::env::args().collect();
    let threads: usize = args[1].parse().unwrap();
    let staged = args[2] == "staged";
    let bufs: usize = args[3].parse().unwrap();
    let cpus = args.get(4).map(|s| parse_cpus(s));
    let pool: Option<usize> = std::env::var("POOL").ok().map(|s| s.parse().unwrap());
    let gpu = Gpu::open(0).unwrap();
    let ctx = gpu.ctx.clone();
    let shared = pool.map(|k| Mutex::new(alloc(&ctx, k, cpus.as_deref())));
    let cond = std::sync::Condvar::new();
    let barrier = std::sync::Barrier::new(threads + 1);
    let times = Mutex::new(Vec::new());
    let start = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                ctx.bind_to_thread().unwrap();
                let stream = ctx.new_stream().unwrap();
                let host: Vec<u32> = (0..WORDS as u32).collect();
                let mut own = if shared.is_none() { alloc(&ctx, bufs, cpus.as_deref()) } else { Vec::new() };
                let mut dev = unsafe { stream.alloc::<u32>(WORDS) }.unwrap();
                barrier.wait();
                let t0 = Instant::now();
                {
                    let (base, _w) = dev.device_ptr_mut(&stream);
                    for (k, chunk) in host.chunks(STAGE).enumerate() {
                        let mut b = if let Some(sh) = &shared {
                            let mut g = sh.lock().unwrap();
                            loop {
                                if let Some(b) = g.pop() { break b; }
                                g = cond.wait(g).unwrap();
                            }
                        } else {
                            let at = k % own.len();
                            std::mem::replace(&mut own[at], Buf(unsafe { ctx.alloc_pinned::<u32>(1).unwrap() }, None))
                        };
                        if let Some(e) = b.1.take() { e.synchronize().unwrap(); }
                        let s = b.0.as_mut_slice().unwrap();
                        if staged { s[..chunk.len()].copy_from_slice(chunk); }
                        let off = (k * STAGE * 4) as u64;
                        unsafe { result::memcpy_htod_async(base + off, &s[..chunk.len()], stream.cu_stream()) }.unwrap();
                        b.1 = Some(stream.record_event(Some(CUevent_flags::CU_EVENT_DISABLE_TIMING)).unwrap());
                        if let Some(sh) = &shared {
                            sh.lock().unwrap().push(b);
                            cond.notify_one();
                        } else {
                            let at = k % own.len();
                            own[at] = b;
                        }
                    }
                }
                stream.synchronize().unwrap();
                times.lock().unwrap().push((t0, Instant::now()));
            });
        }
        barrier.wait();
        *start.lock().unwrap() = Some(Instant::now());
    });
    let times = times.into_inner().unwrap();
    let first = times.iter().map(|t| t.0).min().unwrap();
    let last = times.iter().map(|t| t.1).max().unwrap();
    let total = (threads * WORDS * 4) as f64 / last.duration_since(first).as_secs_f64() / 1e9;
    let mut each: Vec<f64> = times.iter().map(|t| (WORDS * 4) as f64 / t.1.duration_since(t.0).as_secs_f64() / 1e9).collect();
    each.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("threads {threads:2} {:6} bufs {bufs:3} pool {:>4} cpus {:>8}: total {total:6.1} GB/s; per thread min {:5.1} median {:5.1} max {:5.1}",
        args[2], pool.map_or("-".to_string(), |k| k.to_string()), args.get(4).map_or("any", |s| s.as_str()),
        each[0], each[each.len() / 2], each[each.len() - 1]);
}
