/*
 * vdso_image: this process's own vdso, the image perf falls back to for
 * "[vdso]" frames when the build-id cache holds no copy
 * (tools/perf/util/vdso.c: find_vdso_map, get_file): perf copies its own
 * vdso to /tmp/perf-vdso.so-XXXXXX and reads the symbols from there. On
 * the recording machine and kernel it is the image the samples ran in;
 * when a build id was recorded, the caller still checks it.
 */
#ifndef PERF_VDSO_IMAGE_H
#define PERF_VDSO_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* A malloc'd copy of the vdso (its [vdso] mapping in /proc/self/maps), or NULL. */
uint8_t *vdso_image_copy(size_t *size);

#endif
