/*
 * coremark.c: a CPU-bound benchmark in the spirit of EEMBC CoreMark
 * (written from scratch, not CoreMark itself): each iteration does linked
 * list work (find, reverse, merge sort), 16x16 matrix operations, a
 * number-token state machine, and folds every result into a CRC-16.
 * The iteration count comes from the private input (default 10); large
 * counts give runs of billions of instructions. Prints the final CRC.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "guest.h"

#define NOINLINE __attribute__((noinline))

/* ---- CRC-16 (CCITT polynomial, reflected 0x8408) ---- */
NOINLINE static uint16_t crc_u8(uint8_t data, uint16_t crc)
{
    for (int i = 0; i < 8; i++) {
        uint16_t x = (uint16_t)((data ^ crc) & 1);
        data >>= 1;
        crc >>= 1;
        if (x)
            crc ^= 0x8408;
    }
    return crc;
}

NOINLINE static uint16_t crc_u16(uint16_t v, uint16_t crc)
{
    crc = crc_u8((uint8_t)v, crc);
    return crc_u8((uint8_t)(v >> 8), crc);
}

NOINLINE static uint16_t crc_u32(uint32_t v, uint16_t crc)
{
    crc = crc_u16((uint16_t)v, crc);
    return crc_u16((uint16_t)(v >> 16), crc);
}

/* ---- linked list ---- */
#define LIST_LEN 48

struct node {
    struct node *next;
    int16_t data;
    int16_t idx;
};

static struct node pool[LIST_LEN];

static struct node *list_init(uint16_t seed)
{
    struct node *head = NULL;
    for (int i = LIST_LEN - 1; i >= 0; i--) {
        pool[i].idx = (int16_t)i;
        pool[i].data = (int16_t)(((uint32_t)i * 0x9e37u + seed) & 0x7fff);
        pool[i].next = head;
        head = &pool[i];
    }
    return head;
}

NOINLINE static struct node *list_find(struct node *l, int16_t data)
{
    for (; l; l = l->next)
        if ((l->data & 0xff) == (data & 0xff))
            return l;
    return NULL;
}

NOINLINE static struct node *list_reverse(struct node *l)
{
    struct node *prev = NULL;
    while (l) {
        struct node *next = l->next;
        l->next = prev;
        prev = l;
        l = next;
    }
    return prev;
}

typedef int (*node_cmp)(const struct node *, const struct node *);

NOINLINE static int cmp_data(const struct node *a, const struct node *b)
{
    return a->data - b->data;
}
NOINLINE static int cmp_idx(const struct node *a, const struct node *b)
{
    return a->idx - b->idx;
}

/* bottom-up merge sort of a singly linked list (stable) */
NOINLINE static struct node *list_mergesort(struct node *list, node_cmp cmp)
{
    for (int insize = 1;; insize *= 2) {
        struct node *p = list, *tail = NULL;
        int nmerges = 0;
        list = NULL;
        while (p) {
            nmerges++;
            struct node *q = p;
            int psize = 0, qsize = insize;
            for (int i = 0; i < insize && q; i++) {
                psize++;
                q = q->next;
            }
            /* clang-format off */
            while (psize > 0 || (qsize > 0 && q)) {
                struct node *e;
                if (psize == 0) {
                    e = q; q = q->next; qsize--;
                } else if (qsize == 0 || !q || cmp(p, q) <= 0) {
                    e = p; p = p->next; psize--;
                } else {
                    e = q; q = q->next; qsize--;
                }
                if (tail)
                    tail->next = e;
                else
                    list = e;
                tail = e;
            }
            /* clang-format on */
            p = q;
        }
        if (!tail)
            return NULL; /* empty list */
        tail->next = NULL;
        if (nmerges <= 1)
            return list;
    }
}

NOINLINE static uint16_t bench_list(uint16_t seed, uint16_t crc)
{
    struct node *l = list_init(seed);
    for (int i = 0; i < 8; i++) {
        struct node *f = list_find(l, (int16_t)(seed + i * 37));
        crc = crc_u16(f ? (uint16_t)f->idx : 0xffff, crc);
    }
    l = list_reverse(l);
    l = list_mergesort(l, cmp_data);
    crc = crc_u16((uint16_t)l->data, crc);
    for (struct node *p = l; p->next; p = p->next)
        if (p->data > p->next->data)
            return 0; /* not sorted: makes the final CRC wrong */
    l = list_mergesort(l, cmp_idx);
    for (struct node *p = l; p; p = p->next)
        crc = crc_u16((uint16_t)p->data, crc);
    return crc;
}

/* ---- matrices ---- */
#define MAT_N 12

static int16_t mat_a[MAT_N][MAT_N], mat_b[MAT_N][MAT_N];
static int32_t mat_c[MAT_N][MAT_N];
static int16_t vec[MAT_N];
static int32_t vec_out[MAT_N];

NOINLINE static void mat_add_const(int16_t m[MAT_N][MAT_N], int16_t v)
{
    for (int i = 0; i < MAT_N; i++)
        for (int j = 0; j < MAT_N; j++)
            m[i][j] = (int16_t)(m[i][j] + v);
}

NOINLINE static void mat_mul_const(int32_t c[MAT_N][MAT_N], const int16_t a[MAT_N][MAT_N],
                                   int16_t v)
{
    for (int i = 0; i < MAT_N; i++)
        for (int j = 0; j < MAT_N; j++)
            c[i][j] = a[i][j] * v;
}

NOINLINE static void mat_mul_vec(int32_t *out, const int16_t a[MAT_N][MAT_N], const int16_t *v)
{
    for (int i = 0; i < MAT_N; i++) {
        int32_t s = 0;
        for (int j = 0; j < MAT_N; j++)
            s += a[i][j] * v[j];
        out[i] = s;
    }
}

NOINLINE static void mat_mul_mat(int32_t c[MAT_N][MAT_N], const int16_t a[MAT_N][MAT_N],
                                 const int16_t b[MAT_N][MAT_N])
{
    for (int i = 0; i < MAT_N; i++)
        for (int j = 0; j < MAT_N; j++) {
            int32_t s = 0;
            for (int k = 0; k < MAT_N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

NOINLINE static void mat_mul_mat_bitextract(int32_t c[MAT_N][MAT_N], const int16_t a[MAT_N][MAT_N],
                                            const int16_t b[MAT_N][MAT_N])
{
    for (int i = 0; i < MAT_N; i++)
        for (int j = 0; j < MAT_N; j++) {
            int32_t s = 0;
            for (int k = 0; k < MAT_N; k++) {
                int32_t t = a[i][k] * b[k][j];
                s += ((t >> 2) & 0xf) * ((t >> 5) & 0x7f);
            }
            c[i][j] = s;
        }
}

NOINLINE static uint16_t mat_crc(uint16_t crc)
{
    int32_t sum = 0;
    for (int i = 0; i < MAT_N; i++)
        for (int j = 0; j < MAT_N; j++)
            sum += mat_c[i][j] ^ (i * MAT_N + j);
    return crc_u32((uint32_t)sum, crc);
}

NOINLINE static uint16_t bench_matrix(uint16_t seed, uint16_t crc)
{
    for (int i = 0; i < MAT_N; i++) {
        vec[i] = (int16_t)((seed + i * 3) & 0xff);
        for (int j = 0; j < MAT_N; j++) {
            mat_a[i][j] = (int16_t)(((seed ^ (i * 31 + j)) & 0xff) - 128);
            mat_b[i][j] = (int16_t)(((seed + i * 7 + j * 13) & 0x7f) - 64);
        }
    }
    int16_t v = (int16_t)(seed & 0x3f);
    mat_add_const(mat_a, v);
    mat_mul_const(mat_c, mat_a, v);
    crc = mat_crc(crc);
    mat_mul_vec(vec_out, mat_a, vec);
    for (int i = 0; i < MAT_N; i++)
        crc = crc_u32((uint32_t)vec_out[i], crc);
    mat_mul_mat(mat_c, mat_a, mat_b);
    crc = mat_crc(crc);
    mat_mul_mat_bitextract(mat_c, mat_a, mat_b);
    crc = mat_crc(crc);
    mat_add_const(mat_a, (int16_t)-v);
    return crc;
}

/* ---- state machine: classify comma-separated number tokens ---- */
enum state { S_START, S_INVALID, S_S1, S_INT, S_FLOAT, S_S2, S_EXPONENT, S_SCIENTIFIC, S_NSTATES };

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

NOINLINE static enum state next_state(enum state s, char c)
{
    switch (s) {
    case S_START:
        if (is_digit(c))
            return S_INT;
        if (c == '+' || c == '-')
            return S_S1;
        if (c == '.')
            return S_FLOAT;
        return S_INVALID;
    case S_S1:
        if (is_digit(c))
            return S_INT;
        if (c == '.')
            return S_FLOAT;
        return S_INVALID;
    case S_INT:
        if (is_digit(c))
            return S_INT;
        if (c == '.')
            return S_FLOAT;
        return S_INVALID;
    case S_FLOAT:
        if (is_digit(c))
            return S_FLOAT;
        if (c == 'e' || c == 'E')
            return S_S2;
        return S_INVALID;
    case S_S2:
        if (c == '+' || c == '-')
            return S_EXPONENT;
        return S_INVALID;
    case S_EXPONENT:
        if (is_digit(c))
            return S_SCIENTIFIC;
        return S_INVALID;
    case S_SCIENTIFIC:
        if (is_digit(c))
            return S_SCIENTIFIC;
        return S_INVALID;
    default: return S_INVALID;
    }
}

static char sm_input[] = "5012,1234,-874,+122,35.54,.1234,-110.7,+0.64,5.500e+3,-.123e-2,"
                         "-87e+832,+0.6e-12,T0.3e-1F,-T.T++Tq,1T3.4e4z,34.0e-T^,"
                         "7,-20,+8.1,42e+1,0.0e-0,999999,-.5e+07,x";

NOINLINE static uint16_t bench_state(uint16_t seed, uint16_t crc)
{
    unsigned counts[S_NSTATES] = {0};
    size_t len = sizeof sm_input - 1;
    /* corrupt a few characters, as CoreMark does, then restore them */
    size_t pos[3];
    char saved[3];
    for (int i = 0; i < 3; i++) {
        pos[i] = (seed * (size_t)(i + 7)) % len;
        saved[i] = sm_input[pos[i]];
        if (sm_input[pos[i]] != ',')
            sm_input[pos[i]] ^= (char)(1 + (seed & 3));
    }
    enum state s = S_START;
    for (size_t i = 0; i <= len; i++) {
        char c = sm_input[i];
        if (c == ',' || c == 0) {
            counts[s]++;
            s = S_START;
        } else {
            s = next_state(s, c);
        }
    }
    for (int i = 2; i >= 0; i--) /* reverse order: positions may repeat */
        sm_input[pos[i]] = saved[i];
    for (int i = 0; i < S_NSTATES; i++)
        crc = crc_u16((uint16_t)counts[i], crc);
    return crc;
}

NOINLINE static uint16_t iterate(uint32_t iter, uint16_t crc)
{
    uint16_t seed = (uint16_t)(iter * 0x3a5u + 0x66);
    crc = bench_list(seed, crc);
    crc = bench_matrix(seed, crc);
    crc = bench_state(seed, crc);
    return crc;
}

int main(void)
{
    uint64_t iters = guest_input_u64(10);
    if (iters > UINT32_MAX)
        iters = UINT32_MAX;
    /* self-check: CRC-16/KERMIT-style reflected CCITT of "123456789" is 0x2189 */
    uint16_t check = 0;
    for (const char *p = "123456789"; *p; p++)
        check = crc_u8((uint8_t)*p, check);
    if (check != 0x2189) {
        printf("crc self-check failed: %04x\n", check);
        return 1;
    }
    uint16_t crc = 0;
    for (uint32_t i = 0; i < (uint32_t)iters; i++)
        crc = iterate(i, crc);
    printf("coremark-like: %" PRIu32 " iterations, crc %04x\n", (uint32_t)iters, crc);
    return 0;
}
