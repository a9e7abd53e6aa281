# Building RISC-V guest ELFs with the cross compiler, beside the native build.
#
# riscv_guest(NAME name SOURCES a.c b.S [NOSTDLIB] [COMPRESSED] [XLEN 32|64|BOTH]
#             [EXT a] [CFLAGS ...] [LDFLAGS ...] [DEPENDS headers...] [OUTPUT_DIR dir])
#
# Builds ${OUTPUT_DIR}/<name>-rv32.elf (-march=rv32im -mabi=ilp32) and/or
# ${OUTPUT_DIR}/<name>-rv64.elf (-march=rv64im -mabi=lp64) with -g; EXT adds
# extensions to -march (EXT a: rv32ima, rv64ima). COMPRESSED also builds
# <name>-rv32c.elf / <name>-rv64c.elf with C (-march=rv32imc, rv64imac, ...).
# Without NOSTDLIB the guest links against picolibc and our runtime
# (guests/runtime: _start, Linux ecalls, stdio); C sources default to -O2.
# With NOSTDLIB it is linked with -nostdlib -nostartfiles: the sources must
# define _start themselves (assembly tests).
# Adds the targets to the custom target `guests` (built by ALL).

find_program(RISCV_GCC riscv64-unknown-elf-gcc)
if(NOT RISCV_GCC)
  message(FATAL_ERROR
    "riscv64-unknown-elf-gcc not found: install the Debian packages "
    "gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf "
    "(scripts/install-deps.sh does it)")
endif()
if(NOT EXISTS /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs)
  message(FATAL_ERROR
    "picolibc for riscv64-unknown-elf not found: install the Debian package "
    "picolibc-riscv64-unknown-elf (scripts/install-deps.sh does it)")
endif()

# Relative to this file, so that a project embedding guests/ still finds it.
get_filename_component(RISCV_GUEST_RUNTIME_DIR ${CMAKE_CURRENT_LIST_DIR}/../guests/runtime ABSOLUTE)
set(RISCV_GUEST_DIR ${CMAKE_BINARY_DIR}/guests)
if(NOT TARGET guests)
  add_custom_target(guests ALL)
endif()

function(riscv_guest)
  cmake_parse_arguments(G "NOSTDLIB;COMPRESSED" "NAME;XLEN;OUTPUT_DIR;EXT" "SOURCES;CFLAGS;LDFLAGS;DEPENDS" ${ARGN})
  if(NOT G_XLEN)
    set(G_XLEN BOTH)
  endif()
  if(NOT G_OUTPUT_DIR)
    set(G_OUTPUT_DIR ${RISCV_GUEST_DIR})
  endif()
  set(xlens)
  if(G_XLEN STREQUAL "BOTH" OR G_XLEN STREQUAL "32")
    list(APPEND xlens 32)
  endif()
  if(G_XLEN STREQUAL "BOTH" OR G_XLEN STREQUAL "64")
    list(APPEND xlens 64)
  endif()
  if(G_COMPRESSED)
    foreach(x ${xlens})
      list(APPEND xlens ${x}c)
    endforeach()
  endif()

  set(srcs)
  foreach(s ${G_SOURCES})
    get_filename_component(abs ${s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND srcs ${abs})
  endforeach()

  foreach(x ${xlens})
    string(REPLACE "c" "" bits ${x})
    string(REPLACE "${bits}" "" c ${x})
    if(bits EQUAL 32)
      set(arch -march=rv32im${G_EXT}${c} -mabi=ilp32)
    else()
      set(arch -march=rv64im${G_EXT}${c} -mabi=lp64)
    endif()
    set(out ${G_OUTPUT_DIR}/${G_NAME}-rv${x}.elf)
    if(G_NOSTDLIB)
      set(flags ${arch} -g -nostdlib -nostartfiles -static
          ${G_CFLAGS} ${G_LDFLAGS})
      set(deps ${srcs} ${G_DEPENDS})
    else()
      file(GLOB rt_srcs ${RISCV_GUEST_RUNTIME_DIR}/*.c ${RISCV_GUEST_RUNTIME_DIR}/*.S)
      set(flags ${arch} -g -O2 -Wall -Wextra -Werror --specs=picolibc.specs
          -nostartfiles -static -T ${RISCV_GUEST_RUNTIME_DIR}/guest.ld
          -I ${RISCV_GUEST_RUNTIME_DIR} ${G_CFLAGS} ${G_LDFLAGS})
      set(srcs_all ${rt_srcs} ${srcs})
      set(deps ${srcs} ${rt_srcs} ${RISCV_GUEST_RUNTIME_DIR}/guest.ld
          ${RISCV_GUEST_RUNTIME_DIR}/guest.h ${G_DEPENDS})
    endif()
    if(G_NOSTDLIB)
      set(srcs_all ${srcs})
    endif()
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${G_OUTPUT_DIR}
      COMMAND ${RISCV_GCC} ${flags} -o ${out} ${srcs_all}
      DEPENDS ${deps}
      COMMENT "Building RISC-V guest ${G_NAME}-rv${x}.elf"
      VERBATIM)
    add_custom_target(guest_${G_NAME}_rv${x} DEPENDS ${out})
    add_dependencies(guests guest_${G_NAME}_rv${x})
  endforeach()
endfunction()
