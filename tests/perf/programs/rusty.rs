// rusty: a Rust program for the DWARF unwinding tests (rustc -C opt-level=2
// -g, no frame pointers): generics, traits, closures and #[inline(always)]
// functions, so that frames carry Rust's mangled names and inlined frames.
//
//   main -> rusty::run -> <Walker as Step>::step -> mix (inlined) -> spin
use std::hint::black_box;

#[inline(never)]
fn spin(n: u64) -> u64 {
    let mut x = 1u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(2862933555777941757).wrapping_add(i));
    }
    x
}

#[inline(always)]
fn mix(n: u64) -> u64 {
    spin(n) ^ n
}

trait Step {
    fn step(&self, n: u64) -> u64;
}

struct Walker<T> {
    scale: T,
}

impl<T: Copy + Into<u64>> Step for Walker<T> {
    #[inline(never)]
    fn step(&self, n: u64) -> u64 {
        mix(n * self.scale.into())
    }
}

#[inline(never)]
fn run(n: u64) -> u64 {
    let a = Walker { scale: 1u8 };
    let b = Walker { scale: 2u32 };
    let mut total = 0u64;
    for _ in 0..4 {
        total = total.wrapping_add(a.step(n)).wrapping_add(b.step(n));
        let mut v: Vec<u64> = (0..100_000u64).map(|i| (total ^ i) % 100_003).collect();
        v.sort_unstable_by(|x, y| y.cmp(x));
        total = total.wrapping_add(v[0]);
    }
    total
}

fn main() {
    let seconds: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let total = run((seconds * 6e7) as u64);
    std::process::exit(if total == 42 { 1 } else { 0 });
}
