//! rust_inline: a no_std Rust guest whose hot code is inlined generics,
//! closures and iterator adaptors (what zkVM guests are made of), for the
//! inline-frame tests. Prints nothing; keeps a checksum, exits 0.
#![no_std]
#![no_main]

use core::panic::PanicInfo;

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    loop {}
}

struct Lcg(u32);

impl Iterator for Lcg {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        Some(self.0 >> 8)
    }
}

#[inline(always)]
fn mix(x: u32) -> u32 {
    let x = x ^ (x >> 16);
    x.wrapping_mul(0x45d9_f3b)
}

trait Hasher {
    fn feed(&mut self, word: u32);
}

struct Fold(u32);

impl Hasher for Fold {
    #[inline]
    fn feed(&mut self, word: u32) {
        self.0 = self.0.rotate_left(5) ^ mix(word);
    }
}

#[inline(never)]
fn hash_all<H: Hasher>(h: &mut H, words: &[u32]) {
    for &w in words {
        h.feed(w);
    }
}

#[inline(never)]
fn fill(buf: &mut [u32], seed: u32) {
    for (slot, v) in buf.iter_mut().zip(Lcg(seed)) {
        *slot = v;
    }
}

#[inline(never)]
fn sum_odd(words: &[u32]) -> u32 {
    words.iter().filter(|&&w| w & 1 == 1).map(|&w| mix(w)).fold(0u32, |a, b| a.wrapping_add(b))
}

/// Where the checksum goes, so that the work is not optimized away.
static mut CHECKSUM: u32 = 0;

#[no_mangle]
pub extern "C" fn main() -> i32 {
    let mut buf = [0u32; 256];
    let mut h = Fold(0);
    let mut odd = 0u32;
    for round in 0..40 {
        fill(&mut buf, round);
        hash_all(&mut h, &buf);
        odd = odd.wrapping_add(sum_odd(&buf));
    }
    // SAFETY: one thread; a volatile store of a plain integer.
    unsafe { core::ptr::write_volatile(core::ptr::addr_of_mut!(CHECKSUM), h.0 ^ odd) };
    0
}
