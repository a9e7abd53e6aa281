/*
 * mangled: function names are demangled (C++ without its parameter list,
 * as `c++filt -p` prints it; Rust legacy without its ::h<hash>; Rust v0),
 * `;` inside a name becomes `:`, names that do not demangle stay as they
 * are. _start calls each function once; each runs addi, ret (2).
 *
 *   _ZN3foo3barEv                        foo::bar
 *   _ZNSs4sizeEv                         std::basic_string<char,
 *                                        std::char_traits<char>,
 *                                        std::allocator<char> >::size
 *                                        (c++filt -p spells std::string
 *                                        out in full)
 *   _Z3maxIiET_S0_S0_                    max<int>
 *   _ZN12_GLOBAL__N_14quuxEv             (anonymous namespace)::quux
 *   _ZN5crate6module4func17h0123456789abcdefE
 *                                        crate::module::func
 *   _ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h0123456789abcdefE
 *                                        <alloc::vec::Vec<T> as
 *                                        core::ops::drop::Drop>::drop
 *   _RNvNtCs1234_7mycrate3foo3bar        mycrate::foo::bar
 *   _RNvMNtCs1234_7mycrate3fooNtB2_3Bar3new
 *                                        <mycrate::foo::Bar>::new
 *   (v0 as libiberty prints it without implementation details, like
 *   legacy without its hash: no [crate disambiguator])
 *   semi;colon                           semi:colon
 *   _Rnot_rust                           _Rnot_rust
 *
 *   _start: 10 jal + exit(3) = 13
 */
#include "rule.h"

#define CALLED(sym)	.globl sym; .type sym, @function; sym: addi a0, a0, 1; ret; .size sym, . - sym

TEXT
FUNC(_start)
	jal ra, _ZN3foo3barEv
	jal ra, _ZNSs4sizeEv
	jal ra, _Z3maxIiET_S0_S0_
	jal ra, _ZN12_GLOBAL__N_14quuxEv
	jal ra, _ZN5crate6module4func17h0123456789abcdefE
	jal ra, "_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h0123456789abcdefE"
	jal ra, _RNvNtCs1234_7mycrate3foo3bar
	jal ra, _RNvMNtCs1234_7mycrate3fooNtB2_3Bar3new
	jal ra, "semi;colon"
	jal ra, _Rnot_rust
	EXIT
END(_start)

CALLED(_ZN3foo3barEv)
CALLED(_ZNSs4sizeEv)
CALLED(_Z3maxIiET_S0_S0_)
CALLED(_ZN12_GLOBAL__N_14quuxEv)
CALLED(_ZN5crate6module4func17h0123456789abcdefE)
CALLED("_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h0123456789abcdefE")
CALLED(_RNvNtCs1234_7mycrate3foo3bar)
CALLED(_RNvMNtCs1234_7mycrate3fooNtB2_3Bar3new)
CALLED("semi;colon")
CALLED(_Rnot_rust)
