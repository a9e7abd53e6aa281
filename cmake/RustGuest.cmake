# RustGuest: no_std Rust guests for rv32im and rv64ima, built with a rustc
# whose sysroot holds the standard library's source (Debian: the packages
# rustc and rust-src; rustup: the rust-src component). No prebuilt core
# exists for these targets offline, so core is compiled for each target
# once per build (RUSTC_BOOTSTRAP=1 lets a stable rustc do that), then each
# guest as a static library linked with the C runtime by riscv_guest.
#
#   rust_guest(NAME name SOURCE file.rs)  ->  guests/<name>-rv32.elf, -rv64.elf
#
# RUST_GUESTS is ON when such a rustc was found; the callers skip their
# Rust guests and tests otherwise.
include(RiscvGuest)

function(_rust_sysroot_has_core rustc result)
  execute_process(COMMAND ${rustc} --print sysroot OUTPUT_VARIABLE sysroot
                  OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
  set(core ${sysroot}/lib/rustlib/src/rust/library/core/src/lib.rs)
  if(rc EQUAL 0 AND EXISTS ${core})
    set(${result} ${core} PARENT_SCOPE)
  else()
    set(${result} "" PARENT_SCOPE)
  endif()
endfunction()

set(RUST_GUESTS OFF)
set(_candidates)
find_program(_rustc_path rustc)
foreach(c ${_rustc_path} /usr/bin/rustc)
  if(EXISTS ${c})
    list(APPEND _candidates ${c})
  endif()
endforeach()
foreach(c ${_candidates})
  _rust_sysroot_has_core(${c} core_src)
  if(core_src)
    set(RUST_GUESTS ON)
    set(RUST_GUEST_RUSTC ${c})
    set(RUST_GUEST_CORE_SRC ${core_src})
    break()
  endif()
endforeach()
if(NOT RUST_GUESTS)
  message(STATUS "Rust guests skipped: no rustc with the standard library's source "
                 "(install the Debian packages rustc and rust-src: scripts/install-deps.sh)")
endif()

set(RUST_GUEST_TARGET_32 riscv32im-unknown-none-elf)
set(RUST_GUEST_FLAGS_32)
# No riscv64im target exists: riscv64imac without compressed instructions.
set(RUST_GUEST_TARGET_64 riscv64imac-unknown-none-elf)
set(RUST_GUEST_FLAGS_64 -C target-feature=-c)
set(RUST_GUEST_COMMON -C opt-level=2 -C debuginfo=2 -C panic=abort --edition 2021)
set(RUST_GUEST_WORK ${CMAKE_BINARY_DIR}/guests/rust)

# core and the empty compiler_builtins for one XLEN, once per build.
function(_rust_guest_sysroot x)
  if(TARGET rust_core_rv${x})
    return()
  endif()
  set(dir ${RUST_GUEST_WORK}/rv${x})
  set(rustc ${CMAKE_COMMAND} -E env RUSTC_BOOTSTRAP=1 ${RUST_GUEST_RUSTC}
      --target ${RUST_GUEST_TARGET_${x}} ${RUST_GUEST_FLAGS_${x}} ${RUST_GUEST_COMMON})
  add_custom_command(
    OUTPUT ${dir}/libcore.rlib ${dir}/libcompiler_builtins.rlib
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${rustc} --crate-type rlib --crate-name core ${RUST_GUEST_CORE_SRC}
            -o ${dir}/libcore.rlib
    COMMAND ${rustc} --crate-type rlib --crate-name compiler_builtins
            --extern core=${dir}/libcore.rlib
            ${CMAKE_SOURCE_DIR}/guests/rust/compiler_builtins.rs
            -o ${dir}/libcompiler_builtins.rlib
    DEPENDS ${CMAKE_SOURCE_DIR}/guests/rust/compiler_builtins.rs
    COMMENT "Building Rust core for ${RUST_GUEST_TARGET_${x}}"
    VERBATIM)
  add_custom_target(rust_core_rv${x} DEPENDS ${dir}/libcore.rlib)
endfunction()

function(rust_guest)
  cmake_parse_arguments(G "" "NAME;SOURCE" "" ${ARGN})
  if(NOT RUST_GUESTS)
    return()
  endif()
  get_filename_component(src ${G_SOURCE} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  foreach(x 32 64)
    _rust_guest_sysroot(${x})
    set(dir ${RUST_GUEST_WORK}/rv${x})
    set(lib ${dir}/lib${G_NAME}.a)
    add_custom_command(
      OUTPUT ${lib}
      COMMAND ${CMAKE_COMMAND} -E env RUSTC_BOOTSTRAP=1 ${RUST_GUEST_RUSTC}
              --target ${RUST_GUEST_TARGET_${x}} ${RUST_GUEST_FLAGS_${x}} ${RUST_GUEST_COMMON}
              --crate-type staticlib --crate-name ${G_NAME} -L ${dir} ${src} -o ${lib}
      DEPENDS ${src} ${dir}/libcore.rlib ${dir}/libcompiler_builtins.rlib
      COMMENT "Building Rust guest ${G_NAME} for ${RUST_GUEST_TARGET_${x}}"
      VERBATIM)
    if(x EQUAL 32)
      riscv_guest(NAME ${G_NAME} XLEN 32 SOURCES ${lib})
    else()
      riscv_guest(NAME ${G_NAME} XLEN 64 EXT a SOURCES ${lib})
    endif()
    # core is built by its own target first, never twice in parallel.
    add_dependencies(guest_${G_NAME}_rv${x} rust_core_rv${x})
  endforeach()
endfunction()
