//! An empty `compiler_builtins`: every `no_std` crate links one, and the
//! real crate is not part of rust-src. The guests need none of its
//! functions (the M extension multiplies and divides; picolibc has memcpy).
#![no_std]
#![feature(compiler_builtins)]
#![compiler_builtins]
