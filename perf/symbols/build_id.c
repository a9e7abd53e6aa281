/*
 * build_id: note parsing as perf's elf_read_build_id and
 * sysfs__read_build_id do it: 4-byte aligned name and descriptor, name
 * "GNU", type NT_GNU_BUILD_ID; the id is the descriptor (its first 20
 * bytes at most).
 */
#include "perf/symbols/build_id.h"

#include <string.h>

#include "perf/data/bytes.h"

#define NT_GNU_BUILD_ID_TYPE 3u

static uint64_t note_align(uint64_t n)
{
    return (n + 3) & ~(uint64_t)3;
}

bool notes_build_id(const uint8_t *notes, size_t len, struct build_id *out)
{
    size_t pos = 0;
    while (len - pos >= 12) {
        uint32_t namesz = load_u32(notes, pos), descsz = load_u32(notes, pos + 4);
        uint32_t type = load_u32(notes, pos + 8);
        pos += 12;
        uint64_t name_room = note_align(namesz), desc_room = note_align(descsz);
        if (name_room > len - pos || desc_room > len - pos - name_room)
            return false;
        const uint8_t *name = notes + pos, *desc = notes + pos + name_room;
        pos += (size_t)(name_room + desc_room);
        if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 && memcmp(name, "GNU", 4) == 0) {
            size_t n = descsz < PERF_BUILD_ID_MAX ? descsz : PERF_BUILD_ID_MAX;
            memset(out, 0, sizeof(*out));
            memcpy(out->data, desc, n);
            out->size = (uint8_t)n;
            return n > 0;
        }
    }
    return false;
}

void build_id_hex(const struct build_id *id, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < id->size; i++) {
        out[2 * i] = digits[id->data[i] >> 4];
        out[2 * i + 1] = digits[id->data[i] & 15];
    }
    out[2 * id->size] = '\0';
}
