/* Data types, their names, and the reduction kernels of the collectives. */
#include <math.h>
#include <string.h>
#include "coll/coll_internal.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

static const char *const dtype_names[VSYM_DTYPE_COUNT] = {"f32", "f64", "f16", "bf16",
                                                          "i32", "i64", "u64"};
static const size_t dtype_sizes[VSYM_DTYPE_COUNT] = {4, 8, 2, 2, 4, 8, 8};
static const char *const op_names[VSYM_RED_COUNT] = {"sum", "min", "max", "prod"};

VSYM_API size_t vsym_dtype_size(vsym_dtype_t dtype)
{
    return ((unsigned)dtype < VSYM_DTYPE_COUNT) ? dtype_sizes[dtype] : 0;
}

VSYM_API const char *vsym_dtype_name(vsym_dtype_t dtype)
{
    return ((unsigned)dtype < VSYM_DTYPE_COUNT) ? dtype_names[dtype] : "?";
}

VSYM_API vsym_status_t vsym_dtype_from_name(const char *name, vsym_dtype_t *dtype_p)
{
    for (int i = 0; name && i < VSYM_DTYPE_COUNT; i++) {
        if (strcmp(name, dtype_names[i]) == 0) {
            *dtype_p = (vsym_dtype_t)i;
            return VSYM_OK;
        }
    }
    return VSYM_FAIL(VSYM_ERR_BAD_DTYPE, "unknown dtype '%s' (f32, f64, f16, bf16, i32, i64, u64)",
                     name ? name : "(null)");
}

VSYM_API const char *vsym_red_op_name(vsym_red_op_t op)
{
    return ((unsigned)op < VSYM_RED_COUNT) ? op_names[op] : "?";
}

VSYM_API vsym_status_t vsym_red_op_from_name(const char *name, vsym_red_op_t *op_p)
{
    for (int i = 0; name && i < VSYM_RED_COUNT; i++) {
        if (strcmp(name, op_names[i]) == 0) {
            *op_p = (vsym_red_op_t)i;
            return VSYM_OK;
        }
    }
    return VSYM_FAIL(VSYM_ERR_BAD_OP, "unknown reduction op '%s' (sum, min, max, prod)",
                     name ? name : "(null)");
}

vsym_status_t vsym_coll_check_dtype_op(vsym_dtype_t dtype, vsym_red_op_t op, const char *what)
{
    if ((unsigned)dtype >= VSYM_DTYPE_COUNT)
        return VSYM_FAIL(VSYM_ERR_BAD_DTYPE, "%s: unknown dtype %d", what, (int)dtype);
    if ((unsigned)op >= VSYM_RED_COUNT)
        return VSYM_FAIL(VSYM_ERR_BAD_OP, "%s: unknown reduction op %d", what, (int)op);
    if (op == VSYM_RED_PROD && dtype != VSYM_DTYPE_I32 && dtype != VSYM_DTYPE_I64 &&
        dtype != VSYM_DTYPE_U64)
        return VSYM_FAIL(VSYM_ERR_BAD_OP, "%s: prod is for integer dtypes, not %s", what,
                         vsym_dtype_name(dtype));
    return VSYM_OK;
}

/* ---- Half-precision conversions ----------------------------------------------------------- */

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

float vsym_coll_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t man = h & 0x3ff;
    if (exp == 0x1f) /* inf or NaN (payload kept, quiet) */
        return bits_f32(sign | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0));
    if (exp == 0) {
        /* zero or subnormal: man x 2^-24, exact in f32 */
        float v = (float)man * 0x1p-24f;
        return sign ? -v : v;
    }
    return bits_f32(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t vsym_coll_f32_to_f16(float f)
{
    uint32_t u = f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) /* NaN: keep it a quiet NaN */
        return (uint16_t)(sign | 0x7e00 | ((a >> 13) & 0x3ff));
    if (a >= 0x477ff000u) /* rounds to >= 65520: infinity */
        return (uint16_t)(sign | 0x7c00);
    if (a < 0x38800000u) {
        /* below the smallest normal (2^-14): a subnormal result, rounded to nearest even by
         * adding 0.5 (2^-1 in f16 units is 2^-25) in float arithmetic, which rounds the same. */
        float v = bits_f32(a) + 0.5f;
        return (uint16_t)(sign | (uint16_t)(f32_bits(v) - f32_bits(0.5f)));
    }
    /* Normal: rebias the exponent, round the 13 dropped bits to nearest even. */
    uint32_t r = a + 0xc8000fffu + ((a >> 13) & 1);
    return (uint16_t)(sign | (uint16_t)(r >> 13));
}

void vsym_coll_store_double(vsym_dtype_t dtype, void *buf, size_t i, double v)
{
    switch (dtype) {
    case VSYM_DTYPE_F32:
        ((float *)buf)[i] = (float)v;
        break;
    case VSYM_DTYPE_F64:
        ((double *)buf)[i] = v;
        break;
    case VSYM_DTYPE_F16:
        ((uint16_t *)buf)[i] = vsym_coll_f32_to_f16((float)v);
        break;
    case VSYM_DTYPE_BF16:
        ((uint16_t *)buf)[i] = vsym_coll_f32_to_bf16((float)v);
        break;
    case VSYM_DTYPE_I32:
        ((int32_t *)buf)[i] = (int32_t)v;
        break;
    case VSYM_DTYPE_I64:
        ((int64_t *)buf)[i] = (int64_t)v;
        break;
    default:
        ((uint64_t *)buf)[i] = (uint64_t)v;
        break;
    }
}

float vsym_coll_bf16_to_f32(uint16_t h)
{
    return bits_f32((uint32_t)h << 16);
}

/* f32 to bf16, rounded to nearest even, in the high half of the word; a NaN stays a NaN, made
 * quiet, its sign kept. A select, not a branch, so that loops of it vectorize. */
static inline uint32_t bf16_round(float f)
{
    uint32_t u = f32_bits(f);
    return (u & 0x7fffffffu) > 0x7f800000u ? u | 0x400000u : u + 0x7fffu + ((u >> 16) & 1);
}

/* (the bf16 in the high half of bf16_round's word) */
static inline uint16_t bf16_out(float f)
{
    return (uint16_t)(bf16_round(f) >> 16);
}

uint16_t vsym_coll_f32_to_bf16(float f)
{
    return bf16_out(f);
}

/* ---- Block conversions (F16C when the CPU has it) ----------------------------------------- */

enum { BLOCK = 512 };

#if defined(__x86_64__)
__attribute__((target("avx,f16c"))) static void f16_load_f16c(float *dst, const uint16_t *src,
                                                              size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
    for (; i < n; i++)
        dst[i] = vsym_coll_f16_to_f32(src[i]);
}
#endif

static int have_f16c(void)
{
#if defined(__x86_64__)
    static int cached = -1;
    if (cached < 0) cached = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
    return cached;
#else
    return 0;
#endif
}

#if defined(__x86_64__)
/* AVX2 and AVX-512 versions chosen at load time where the CPU has them. */
#define RED_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RED_CLONES
#endif

/* f16 to f32 (f16 is reduced in f32 when no fused kernel runs: half_vec). */
static void f16_load(float *dst, const uint16_t *src, size_t n)
{
#if defined(__x86_64__)
    if (have_f16c()) {
        f16_load_f16c(dst, src, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        dst[i] = vsym_coll_f16_to_f32(src[i]);
}

/* ---- Reductions --------------------------------------------------------------------------- */

/* Bytes of the destination reduced per pass over the sources (kept in L1 between passes). */
#ifndef VSYM_REDUCE_BLOCK
#define VSYM_REDUCE_BLOCK 4096
#endif

/* The four reductions' expressions of elements A and B, each handed to EACH (a kernel's loop
 * over its elements, which ends its case with a break); T is the kernel's element type (a typedef
 * in each kernel). min and max pick by a strict comparison, so that equal operands (-0 and +0)
 * resolve by position: the result depends only on the order of the sources, which is fixed.
 * Integer sums and products wrap (computed unsigned UT, no undefined overflow). */
#define RED_BY_OP(EACH, UT, A, B)                                                                  \
    switch (op) {                                                                                  \
    case VSYM_RED_SUM:                                                                             \
        EACH((T)((UT)(A) + (UT)(B)));                                                              \
    case VSYM_RED_PROD:                                                                            \
        EACH((T)((UT)(A) * (UT)(B)));                                                              \
    case VSYM_RED_MIN:                                                                             \
        EACH((B) < (A) ? (B) : (A));                                                               \
    default:                                                                                       \
        EACH((B) > (A) ? (B) : (A));                                                               \
    }

/* d[i] = a[i] op b[i] over the n elements, from the first up or, with back, from the last down
 * (see vsym_coll_reduce_backward). */
#define RED_EACH(EXPR)                                                                             \
    if (back) {                                                                                    \
        for (size_t i = n; i-- > 0;)                                                               \
            d[i] = EXPR;                                                                           \
    } else {                                                                                       \
        for (size_t i = 0; i < n; i++)                                                             \
            d[i] = EXPR;                                                                           \
    }                                                                                              \
    break
#define RED_LOOPS(T_, UT)                                                                          \
    RED_CLONES static void red2_##T_(vsym_red_op_t op, T_ *d, const T_ *a, const T_ *b, size_t n,  \
                                     int back)                                                     \
    {                                                                                              \
        typedef T_ T;                                                                              \
        RED_BY_OP(RED_EACH, UT, a[i], b[i])                                                        \
    }

RED_LOOPS(int32_t, uint32_t)
RED_LOOPS(int64_t, uint64_t)
RED_LOOPS(uint64_t, uint64_t)
RED_LOOPS(float, float)
RED_LOOPS(double, double)

/* d0[i] = d1[i] = a[i] op b[i]: one pass that stores each result twice, for the pushing
 * all-reduce (a reduced block written into a temporary, then copied to every rank, took 1.4-2x
 * longer on the 2-core Zen 3 host at 1-4 MiB). A destination may be a source element for
 * element (in place): no iteration reads what another writes, which the loop tells GCC, so that
 * it vectorizes without checking the pointers for overlap. */
#if defined(__GNUC__) && !defined(__clang__)
#define RED_NO_CARRIED_DEP _Pragma("GCC ivdep")
#else
#define RED_NO_CARRIED_DEP
#endif
#define RED_PUSH_ONE(EXPR)                                                                         \
    {                                                                                              \
        T v = EXPR;                                                                                \
        d0[i] = v;                                                                                 \
        d1[i] = v;                                                                                 \
    }
#define RED_PUSH_EACH(EXPR)                                                                        \
    if (back) {                                                                                    \
        RED_NO_CARRIED_DEP                                                                         \
        for (size_t i = n; i-- > 0;)                                                               \
            RED_PUSH_ONE(EXPR)                                                                     \
    } else {                                                                                       \
        RED_NO_CARRIED_DEP                                                                         \
        for (size_t i = 0; i < n; i++)                                                             \
            RED_PUSH_ONE(EXPR)                                                                     \
    }                                                                                              \
    break
#define RED_PUSH_LOOPS(T_, UT)                                                                     \
    RED_CLONES static void red2x_##T_(vsym_red_op_t op, T_ *d0, T_ *d1, const T_ *a, const T_ *b,  \
                                      size_t n, int back)                                          \
    {                                                                                              \
        typedef T_ T;                                                                              \
        RED_BY_OP(RED_PUSH_EACH, UT, a[i], b[i])                                                   \
    }

RED_PUSH_LOOPS(int32_t, uint32_t)
RED_PUSH_LOOPS(int64_t, uint64_t)
RED_PUSH_LOOPS(uint64_t, uint64_t)
RED_PUSH_LOOPS(float, float)
RED_PUSH_LOOPS(double, double)

/* Counts up to VSYM_COLL_RED_SMALL bytes (the LL protocol's calls): every source in one call, pass
 * after pass over a local accumulator, d[i] = ((s0[i] op s1[i]) op s2[i]) ..., the order of the
 * pairwise kernels, so the same bits; d may be any source. Against a pairwise call per source, the
 * all-reduce of 16-256 B (f32, ranks bound to cores, 16-core Intel guest, medians of 6 launches
 * taking turns) 0.81-1.00 of the time at 2 ranks, 0.91-1.03 at 4, 0.84-0.95 at 8, 0.45-0.91 at
 * 16 (each of its 15 pairwise calls a cost of its own); the fused pairs at 8 ranks 0.90-1.08, at
 * 16 0.83-1.16, about even (results/coll/device-16core-2026-11-28-stop47). */
#define RED_N_PASS(EXPR)                                                                           \
    for (size_t i = 0; i < n; i++)                                                                 \
        acc[i] = EXPR;                                                                             \
    break
#define RED_N_LOOPS(T_, UT)                                                                        \
    RED_CLONES static void redn_##T_(vsym_red_op_t op, T_ *d, const void *const *srcs, int nsrc,   \
                                     size_t n)                                                     \
    {                                                                                              \
        typedef T_ T;                                                                              \
        T acc[VSYM_COLL_RED_SMALL / sizeof(T)];                                                    \
        memcpy(acc, srcs[0], n * sizeof(T));                                                       \
        for (int j = 1; j < nsrc; j++) {                                                           \
            const T *s = (const T *)srcs[j];                                                       \
            RED_BY_OP(RED_N_PASS, UT, acc[i], s[i])                                                \
        }                                                                                          \
        memcpy(d, acc, n * sizeof(T));                                                             \
    }

RED_N_LOOPS(int32_t, uint32_t)
RED_N_LOOPS(int64_t, uint64_t)
RED_N_LOOPS(uint64_t, uint64_t)
RED_N_LOOPS(float, float)
RED_N_LOOPS(double, double)

/* The kernel FN_<type> of dtype (f16 and bf16 are reduced in f32 by the callers). */
#define RED_DISPATCH(FN, ...)                                                                      \
    switch (dtype) {                                                                               \
    case VSYM_DTYPE_F32:                                                                           \
        FN##_float(__VA_ARGS__);                                                                   \
        break;                                                                                     \
    case VSYM_DTYPE_F64:                                                                           \
        FN##_double(__VA_ARGS__);                                                                  \
        break;                                                                                     \
    case VSYM_DTYPE_I32:                                                                           \
        FN##_int32_t(__VA_ARGS__);                                                                 \
        break;                                                                                     \
    case VSYM_DTYPE_I64:                                                                           \
        FN##_int64_t(__VA_ARGS__);                                                                 \
        break;                                                                                     \
    default:                                                                                       \
        FN##_uint64_t(__VA_ARGS__);                                                                \
        break;                                                                                     \
    }

/* ---- Half-precision reductions ------------------------------------------------------------ */

/* f16 and bf16 accumulate in f32: the first source converted into a block of floats, every
 * further one converted and combined in the same pass, the last one combined and rounded back on
 * its way to dst (two sources: one pass, no block). Element for element what converting every
 * source into floats, reducing them with the f32 kernels and rounding once gives (min and max
 * with the f32 kernels' strict comparisons: b op a ? b : a), in far fewer passes: a 1 MiB bf16
 * all-reduce between 2 ranks on the 2-core AMD host took 190-330 us with a call per element and
 * four passes per block (now 41-47 us; f16 125-135 -> 28-40), where the f32 one of the same
 * bytes took 25. */
#define HALF_SUM(a, b) ((a) + (b))
#define HALF_MIN(a, b) ((b) < (a) ? (b) : (a))
#define HALF_MAX(a, b) ((b) > (a) ? (b) : (a))
#define BF16_IN(h) bits_f32((uint32_t)(h) << 16)

/* bf16 two elements to a 32-bit word: the even one (the low half) becomes a float by a shift, the
 * odd one by a mask, and the two rounded results join by a shift, a mask and an or, so that the
 * kernels run on whole words with no widening or narrowing shuffles (a two-source sum in L1 on
 * the 2-core AMD host: 0.11 ns per element against 0.16 converting element by element with
 * 512-bit vectors, 0.14-0.16 against 0.33 with 256-bit ones). The accumulator of three or more
 * sources keeps a block's even elements in acc[0..BLOCK/2) and its odd ones in acc[BLOCK/2..);
 * an odd count's last element goes to the evens. */
typedef uint32_t bf16_word __attribute__((aligned(2), may_alias));
#define BF16_EVEN(w) bits_f32((uint32_t)(w) << 16)
#define BF16_ODD(w) bits_f32(0xffff0000u & (uint32_t)(w))
/* Rounding in the kernels needs no NaN case: every NaN they meet has a zero low half (a bf16
 * input made a float, or the default NaN of inf - inf, carried on by sums, min and max), which
 * the rounding's add does not carry out of, and the quieting bf16_round adds, the add that made
 * it has added. */
#define BF16_RND(f) (f32_bits(f) + 0x7fffu + ((f32_bits(f) >> 16) & 1))
#define BF16_JOIN(e, o) ((BF16_RND(o) & 0xffff0000u) | (BF16_RND(e) >> 16))

/* A kernel per op over the words and, for an odd count, the last element (prod is for integers
 * only: never here). */
#define BF16_BY_OP(BODY, TAIL)                                                                     \
    size_t nw = n / 2;                                                                             \
    switch (op) {                                                                                  \
    case VSYM_RED_MIN:                                                                             \
        RED_NO_CARRIED_DEP                                                                         \
        for (size_t i = 0; i < nw; i++)                                                            \
            BODY(HALF_MIN);                                                                        \
        if (n & 1) TAIL(HALF_MIN);                                                                 \
        break;                                                                                     \
    case VSYM_RED_MAX:                                                                             \
        RED_NO_CARRIED_DEP                                                                         \
        for (size_t i = 0; i < nw; i++)                                                            \
            BODY(HALF_MAX);                                                                        \
        if (n & 1) TAIL(HALF_MAX);                                                                 \
        break;                                                                                     \
    default:                                                                                       \
        RED_NO_CARRIED_DEP                                                                         \
        for (size_t i = 0; i < nw; i++)                                                            \
            BODY(HALF_SUM);                                                                        \
        if (n & 1) TAIL(HALF_SUM);                                                                 \
        break;                                                                                     \
    }
#define BF16_PAIR(OP)                                                                              \
    dw[i] = BF16_JOIN(OP(BF16_EVEN(aw[i]), BF16_EVEN(bw[i])), OP(BF16_ODD(aw[i]), BF16_ODD(bw[i])))
#define BF16_PAIR_T(OP) d[n - 1] = bf16_out(OP(BF16_IN(a[n - 1]), BF16_IN(b[n - 1])))
#define BF16_PAIR2(OP)                                                                             \
    d0w[i] = d1w[i] =                                                                              \
        BF16_JOIN(OP(BF16_EVEN(aw[i]), BF16_EVEN(bw[i])), OP(BF16_ODD(aw[i]), BF16_ODD(bw[i])))
#define BF16_PAIR2_T(OP) d0[n - 1] = d1[n - 1] = bf16_out(OP(BF16_IN(a[n - 1]), BF16_IN(b[n - 1])))
#define BF16_ACC(OP)                                                                               \
    {                                                                                              \
        acc[i] = OP(acc[i], BF16_EVEN(bw[i]));                                                     \
        acc[BLOCK / 2 + i] = OP(acc[BLOCK / 2 + i], BF16_ODD(bw[i]));                              \
    }
#define BF16_ACC_T(OP) acc[nw] = OP(acc[nw], BF16_IN(b[n - 1]))
#define BF16_LAST(OP)                                                                              \
    dw[i] = BF16_JOIN(OP(acc[i], BF16_EVEN(bw[i])), OP(acc[BLOCK / 2 + i], BF16_ODD(bw[i])))
#define BF16_LAST_T(OP) d[n - 1] = bf16_out(OP(acc[nw], BF16_IN(b[n - 1])))

/* The kernels' bodies, inlined into versions for the CPU at hand (below); n <= BLOCK where acc
 * is involved. */
static inline __attribute__((always_inline)) void
bf16_pair_k(vsym_red_op_t op, uint16_t *d, const uint16_t *a, const uint16_t *b, size_t n)
{
    bf16_word *dw = (bf16_word *)d;
    const bf16_word *aw = (const bf16_word *)a, *bw = (const bf16_word *)b;
    BF16_BY_OP(BF16_PAIR, BF16_PAIR_T)
}

static inline __attribute__((always_inline)) void bf16_first_k(float *acc, const uint16_t *a,
                                                               size_t n)
{
    const bf16_word *aw = (const bf16_word *)a;
    size_t nw = n / 2;
    for (size_t i = 0; i < nw; i++) {
        acc[i] = BF16_EVEN(aw[i]);
        acc[BLOCK / 2 + i] = BF16_ODD(aw[i]);
    }
    if (n & 1) acc[nw] = BF16_IN(a[n - 1]);
}

static inline __attribute__((always_inline)) void bf16_acc_k(vsym_red_op_t op, float *acc,
                                                             const uint16_t *b, size_t n)
{
    const bf16_word *bw = (const bf16_word *)b;
    BF16_BY_OP(BF16_ACC, BF16_ACC_T)
}

static inline __attribute__((always_inline)) void
bf16_last_k(vsym_red_op_t op, uint16_t *d, const float *acc, const uint16_t *b, size_t n)
{
    bf16_word *dw = (bf16_word *)d;
    const bf16_word *bw = (const bf16_word *)b;
    BF16_BY_OP(BF16_LAST, BF16_LAST_T)
}

static inline __attribute__((always_inline)) void bf16_pair2_k(vsym_red_op_t op, uint16_t *d0,
                                                               uint16_t *d1, const uint16_t *a,
                                                               const uint16_t *b, size_t n)
{
    bf16_word *d0w = (bf16_word *)d0, *d1w = (bf16_word *)d1;
    const bf16_word *aw = (const bf16_word *)a, *bw = (const bf16_word *)b;
    BF16_BY_OP(BF16_PAIR2, BF16_PAIR2_T)
}

/* With AVX-512 the compiler's 512-bit vectors (it prefers 256 by default): 0.11 ns per element
 * of a two-source bf16 sum in L1 against 0.14-0.16 with 256-bit ones on the 2-core AMD host. */
#if defined(__x86_64__)
#define BF16_ANY __attribute__((target_clones("avx2", "default")))
#define BF16_512 __attribute__((target("avx512f,avx512bw,prefer-vector-width=512")))

static int wide_bf16 = -1; /* -1 until asked; vsym_coll_reduce_wide */

static int have_avx512bw(void)
{
    int w = __atomic_load_n(&wide_bf16, __ATOMIC_RELAXED);
    if (w < 0) {
        w = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
        __atomic_store_n(&wide_bf16, w, __ATOMIC_RELAXED);
    }
    return w;
}

BF16_ANY static void bf16_pair_any(vsym_red_op_t op, uint16_t *d, const uint16_t *a,
                                   const uint16_t *b, size_t n)
{
    bf16_pair_k(op, d, a, b, n);
}

BF16_512 static void bf16_pair_512(vsym_red_op_t op, uint16_t *d, const uint16_t *a,
                                   const uint16_t *b, size_t n)
{
    bf16_pair_k(op, d, a, b, n);
}

BF16_ANY static void bf16_first_any(float *acc, const uint16_t *a, size_t n)
{
    bf16_first_k(acc, a, n);
}

BF16_512 static void bf16_first_512(float *acc, const uint16_t *a, size_t n)
{
    bf16_first_k(acc, a, n);
}

BF16_ANY static void bf16_acc_any(vsym_red_op_t op, float *acc, const uint16_t *b, size_t n)
{
    bf16_acc_k(op, acc, b, n);
}

BF16_512 static void bf16_acc_512(vsym_red_op_t op, float *acc, const uint16_t *b, size_t n)
{
    bf16_acc_k(op, acc, b, n);
}

BF16_ANY static void bf16_last_any(vsym_red_op_t op, uint16_t *d, const float *acc,
                                   const uint16_t *b, size_t n)
{
    bf16_last_k(op, d, acc, b, n);
}

BF16_512 static void bf16_last_512(vsym_red_op_t op, uint16_t *d, const float *acc,
                                   const uint16_t *b, size_t n)
{
    bf16_last_k(op, d, acc, b, n);
}

BF16_ANY static void bf16_pair2_any(vsym_red_op_t op, uint16_t *d0, uint16_t *d1, const uint16_t *a,
                                    const uint16_t *b, size_t n)
{
    bf16_pair2_k(op, d0, d1, a, b, n);
}

BF16_512 static void bf16_pair2_512(vsym_red_op_t op, uint16_t *d0, uint16_t *d1, const uint16_t *a,
                                    const uint16_t *b, size_t n)
{
    bf16_pair2_k(op, d0, d1, a, b, n);
}

#define BF16_PICK(NAME, ...)                                                                       \
    do {                                                                                           \
        if (have_avx512bw())                                                                       \
            NAME##_512(__VA_ARGS__);                                                               \
        else                                                                                       \
            NAME##_any(__VA_ARGS__);                                                               \
    } while (0)
#else
#define BF16_PICK(NAME, ...) NAME##_k(__VA_ARGS__)
#endif

int vsym_coll_reduce_wide(int on)
{
#if defined(__x86_64__)
    if (on >= 0) __atomic_store_n(&wide_bf16, on ? -1 : 0, __ATOMIC_RELAXED); /* -1: the CPU's */
    return have_avx512bw();
#else
    (void)on;
    return 0;
#endif
}

static void bf16_pair(vsym_red_op_t op, uint16_t *d, const uint16_t *a, const uint16_t *b, size_t n)
{
    BF16_PICK(bf16_pair, op, d, a, b, n);
}

static void bf16_first(float *acc, const uint16_t *a, size_t n)
{
    BF16_PICK(bf16_first, acc, a, n);
}

static void bf16_acc(vsym_red_op_t op, float *acc, const uint16_t *b, size_t n)
{
    BF16_PICK(bf16_acc, op, acc, b, n);
}

static void bf16_last(vsym_red_op_t op, uint16_t *d, const float *acc, const uint16_t *b, size_t n)
{
    BF16_PICK(bf16_last, op, d, acc, b, n);
}

static void bf16_pair2(vsym_red_op_t op, uint16_t *d0, uint16_t *d1, const uint16_t *a,
                       const uint16_t *b, size_t n)
{
    BF16_PICK(bf16_pair2, op, d0, d1, a, b, n);
}

#if defined(__x86_64__)
/* f16 with F16C, 8 elements at a time; the tail through the scalar conversions. */
#define F16_V(op, a, b)                                                                            \
    ((op) == VSYM_RED_MIN   ? _mm256_blendv_ps((a), (b), _mm256_cmp_ps((b), (a), _CMP_LT_OQ))      \
     : (op) == VSYM_RED_MAX ? _mm256_blendv_ps((a), (b), _mm256_cmp_ps((b), (a), _CMP_GT_OQ))      \
                            : _mm256_add_ps((a), (b)))
#define F16_S(op, a, b)                                                                            \
    ((op) == VSYM_RED_MIN ? HALF_MIN(a, b) : (op) == VSYM_RED_MAX ? HALF_MAX(a, b) : HALF_SUM(a, b))
#define F16_LOAD(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(p)))
#define F16_STORE(p, v)                                                                            \
    _mm_storeu_si128((__m128i *)(p), _mm256_cvtps_ph((v), _MM_FROUND_TO_NEAREST_INT))

__attribute__((target("avx,f16c"))) static void
f16_pair_256(vsym_red_op_t op, uint16_t *d, const uint16_t *a, const uint16_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        F16_STORE(d + i, F16_V(op, F16_LOAD(a + i), F16_LOAD(b + i)));
    for (; i < n; i++)
        d[i] =
            vsym_coll_f32_to_f16(F16_S(op, vsym_coll_f16_to_f32(a[i]), vsym_coll_f16_to_f32(b[i])));
}

__attribute__((target("avx,f16c"))) static void f16_pair2_256(vsym_red_op_t op, uint16_t *d0,
                                                              uint16_t *d1, const uint16_t *a,
                                                              const uint16_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i v =
            _mm256_cvtps_ph(F16_V(op, F16_LOAD(a + i), F16_LOAD(b + i)), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128((__m128i *)(d0 + i), v);
        _mm_storeu_si128((__m128i *)(d1 + i), v);
    }
    for (; i < n; i++)
        d0[i] = d1[i] =
            vsym_coll_f32_to_f16(F16_S(op, vsym_coll_f16_to_f32(a[i]), vsym_coll_f16_to_f32(b[i])));
}

__attribute__((target("avx,f16c"))) static void f16_acc_256(vsym_red_op_t op, float *acc,
                                                            const uint16_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(acc + i, F16_V(op, _mm256_loadu_ps(acc + i), F16_LOAD(b + i)));
    for (; i < n; i++)
        acc[i] = F16_S(op, acc[i], vsym_coll_f16_to_f32(b[i]));
}

__attribute__((target("avx,f16c"))) static void
f16_last_256(vsym_red_op_t op, uint16_t *d, const float *acc, const uint16_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        F16_STORE(d + i, F16_V(op, _mm256_loadu_ps(acc + i), F16_LOAD(b + i)));
    for (; i < n; i++)
        d[i] = vsym_coll_f32_to_f16(F16_S(op, acc[i], vsym_coll_f16_to_f32(b[i])));
}

/* The same 16 elements at a time with AVX-512 (the conversions are AVX-512F's); the tail through
 * the 8-wide versions. */
#define F16W_V(op, a, b)                                                                           \
    ((op) == VSYM_RED_MIN                                                                          \
         ? _mm512_mask_blend_ps(_mm512_cmp_ps_mask((b), (a), _CMP_LT_OQ), (a), (b))                \
     : (op) == VSYM_RED_MAX                                                                        \
         ? _mm512_mask_blend_ps(_mm512_cmp_ps_mask((b), (a), _CMP_GT_OQ), (a), (b))                \
         : _mm512_add_ps((a), (b)))
#define F16W_LOAD(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(p)))
#define F16W_HALF(v) _mm512_cvtps_ph((v), _MM_FROUND_TO_NEAREST_INT)

__attribute__((target("avx512f,f16c"))) static void
f16_pair_512(vsym_red_op_t op, uint16_t *d, const uint16_t *a, const uint16_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm256_storeu_si256((__m256i *)(d + i),
                            F16W_HALF(F16W_V(op, F16W_LOAD(a + i), F16W_LOAD(b + i))));
    f16_pair_256(op, d + i, a + i, b + i, n - i);
}

__attribute__((target("avx512f,f16c"))) static void f16_pair2_512(vsym_red_op_t op, uint16_t *d0,
                                                                  uint16_t *d1, const uint16_t *a,
                                                                  const uint16_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i v = F16W_HALF(F16W_V(op, F16W_LOAD(a + i), F16W_LOAD(b + i)));
        _mm256_storeu_si256((__m256i *)(d0 + i), v);
        _mm256_storeu_si256((__m256i *)(d1 + i), v);
    }
    f16_pair2_256(op, d0 + i, d1 + i, a + i, b + i, n - i);
}

__attribute__((target("avx512f,f16c"))) static void f16_acc_512(vsym_red_op_t op, float *acc,
                                                                const uint16_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(acc + i, F16W_V(op, _mm512_loadu_ps(acc + i), F16W_LOAD(b + i)));
    f16_acc_256(op, acc + i, b + i, n - i);
}

__attribute__((target("avx512f,f16c"))) static void
f16_last_512(vsym_red_op_t op, uint16_t *d, const float *acc, const uint16_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm256_storeu_si256((__m256i *)(d + i),
                            F16W_HALF(F16W_V(op, _mm512_loadu_ps(acc + i), F16W_LOAD(b + i))));
    f16_last_256(op, d + i, acc + i, b + i, n - i);
}

/* The 16-wide versions where the 512-bit bf16 kernels run (have_avx512bw). */
static void f16_pair(vsym_red_op_t op, uint16_t *d, const uint16_t *a, const uint16_t *b, size_t n)
{
    if (have_avx512bw())
        f16_pair_512(op, d, a, b, n);
    else
        f16_pair_256(op, d, a, b, n);
}

static void f16_pair2(vsym_red_op_t op, uint16_t *d0, uint16_t *d1, const uint16_t *a,
                      const uint16_t *b, size_t n)
{
    if (have_avx512bw())
        f16_pair2_512(op, d0, d1, a, b, n);
    else
        f16_pair2_256(op, d0, d1, a, b, n);
}

static void f16_acc(vsym_red_op_t op, float *acc, const uint16_t *b, size_t n)
{
    if (have_avx512bw())
        f16_acc_512(op, acc, b, n);
    else
        f16_acc_256(op, acc, b, n);
}

static void f16_last(vsym_red_op_t op, uint16_t *d, const float *acc, const uint16_t *b, size_t n)
{
    if (have_avx512bw())
        f16_last_512(op, d, acc, b, n);
    else
        f16_last_256(op, d, acc, b, n);
}
#endif

/* Whether the fused half-precision kernels run here: bf16 always, f16 with F16C. */
static int half_vec(vsym_dtype_t dtype)
{
#if defined(__x86_64__)
    return dtype == VSYM_DTYPE_BF16 || have_f16c();
#else
    return dtype == VSYM_DTYPE_BF16;
#endif
}

/* d0 = d1 = a op b for f16 or bf16 where half_vec says so: one pass storing each result twice,
 * for the pushing all-reduce. */
static void half_pair2(vsym_dtype_t dtype, vsym_red_op_t op, uint16_t *d0, uint16_t *d1,
                       const uint16_t *a, const uint16_t *b, size_t n)
{
#if defined(__x86_64__)
    if (dtype != VSYM_DTYPE_BF16) {
        f16_pair2(op, d0, d1, a, b, n);
        return;
    }
#else
    (void)dtype;
#endif
    bf16_pair2(op, d0, d1, a, b, n);
}

/* dst = srcs[0] op ... op srcs[nsrc-1] for f16 or bf16, nsrc >= 2, in blocks of BLOCK. */
static void half_reduce(vsym_dtype_t dtype, vsym_red_op_t op, uint16_t *dst,
                        const void *const *srcs, int nsrc, size_t count)
{
    float acc[BLOCK], in[BLOCK];
    for (size_t off = 0; off < count; off += BLOCK) {
        size_t m = count - off < BLOCK ? count - off : BLOCK;
        const uint16_t *first = (const uint16_t *)srcs[0] + off;
        const uint16_t *last = (const uint16_t *)srcs[nsrc - 1] + off;
        if (dtype == VSYM_DTYPE_BF16) {
            if (nsrc == 2) {
                bf16_pair(op, dst + off, first, last, m);
                continue;
            }
            bf16_first(acc, first, m);
            for (int k = 1; k < nsrc - 1; k++)
                bf16_acc(op, acc, (const uint16_t *)srcs[k] + off, m);
            bf16_last(op, dst + off, acc, last, m);
            continue;
        }
#if defined(__x86_64__)
        if (have_f16c()) {
            if (nsrc == 2) {
                f16_pair(op, dst + off, first, last, m);
                continue;
            }
            f16_load(acc, first, m);
            for (int k = 1; k < nsrc - 1; k++)
                f16_acc(op, acc, (const uint16_t *)srcs[k] + off, m);
            f16_last(op, dst + off, acc, last, m);
            continue;
        }
#endif
        /* f16 without F16C: every source into floats, the f32 kernel, one rounding. */
        f16_load(acc, first, m);
        for (int k = 1; k < nsrc; k++) {
            f16_load(in, (const uint16_t *)srcs[k] + off, m);
            red2_float(op, acc, acc, in, m, 0);
        }
        for (size_t i = 0; i < m; i++)
            dst[off + i] = vsym_coll_f32_to_f16(acc[i]);
    }
}

/* 4K aliasing: a load waits for an older store still in flight whose address matches its own in
 * the low 12 bits, as if it were the same byte. A loop that stores element i and soon loads
 * element i + k of a source sitting k elements before the destination modulo 4 KiB waits so at
 * every vector (a 1 MiB all-reduce between 2 ranks on the 2-core AMD host: 32 us with dst 64
 * bytes past src modulo 4 KiB, 23 us with them on the same offset). Such a call runs from its last
 * element down instead, blocks and elements alike (descending within blocks taken in ascending
 * order halved the speed from memory: the prefetchers lose the stream), when a destination lies
 * less than RED_ALIAS_NEAR bytes past a source modulo 4 KiB and no pair is nearer the other way.
 * The order of the elements does not change a result, as no element depends on another. */
#define RED_ALIAS_NEAR 512
int vsym_coll_reduce_backward(void *const *st, int nst, const void *const *ld, int nld)
{
    size_t ahead = 4096, behind = 4096;
    for (int s = 0; s < nst; s++)
        for (int l = 0; l < nld; l++) {
            size_t d = ((uintptr_t)st[s] - (uintptr_t)ld[l]) & 4095;
            if (d == 0) continue;
            ahead = d < ahead ? d : ahead;
            behind = 4096 - d < behind ? 4096 - d : behind;
        }
    return ahead < RED_ALIAS_NEAR && behind > ahead;
}

/* Whether the kernels turn (vsym_coll_reduce_turning): on AMD CPUs only. The 16-core Intel Xeon
 * guest gained nothing at 2 ranks (symmetric all-reduce 1.00-1.06x the time at 64 KiB-4 MiB) and
 * lost at 8-16 ranks in the run that turned there (all-reduce 64 KiB-1 MiB 1.13-1.58x the time,
 * reduce-scatter 1.14-1.36x; results/coll/device-16core-2026-11-27-stop31, whose launches spread
 * up to 2x; a guess: its L1 next-line prefetcher follows ascending lines only). -1 until asked. */
static int red_turning = -1;

int vsym_coll_reduce_turning(int on)
{
    if (on < 0) on = __atomic_load_n(&red_turning, __ATOMIC_RELAXED);
    if (on < 0) on = vsym_util_cpu_amd();
    __atomic_store_n(&red_turning, on, __ATOMIC_RELAXED);
    return on;
}

/* The direction of a call storing to st while loading from ld: backward (1) or forward. */
static int red_direction(void *const *st, int nst, const void *const *ld, int nld)
{
    return vsym_coll_reduce_turning(-1) && vsym_coll_reduce_backward(st, nst, ld, nld);
}

static void red2x(vsym_dtype_t dtype, vsym_red_op_t op, void *d0, void *d1, const void *a,
                  const void *b, size_t n, int back)
{
    RED_DISPATCH(red2x, op, d0, d1, a, b, n, back)
}

static void red2(vsym_dtype_t dtype, vsym_red_op_t op, void *d, const void *a, const void *b,
                 size_t n, int back)
{
    RED_DISPATCH(red2, op, d, a, b, n, back)
}

void *vsym_coll_unaliased(void *buf, const void *src)
{
    return (char *)buf + (((uintptr_t)src + 2048 - (uintptr_t)buf) & 4032);
}

/* Block k of nblk in the order of the call: from the last down with back. */
static size_t block_at(size_t k, size_t nblk, int back)
{
    return back ? nblk - 1 - k : k;
}

/* vsym_coll_reduce in the direction back. */
static void reduce_dir(vsym_dtype_t dtype, vsym_red_op_t op, void *dst, const void *const *srcs,
                       int nsrc, size_t count, int back)
{
    size_t es = vsym_dtype_size(dtype);
    if (count == 0) return;
    if (nsrc == 1) {
        if (dst != srcs[0]) memmove(dst, srcs[0], count * es);
        return;
    }
    if (dtype == VSYM_DTYPE_F16 || dtype == VSYM_DTYPE_BF16) {
        half_reduce(dtype, op, dst, srcs, nsrc, count);
        return;
    }
    /* Blocks small enough to stay in L1 between the passes over the sources. */
    size_t blk = VSYM_REDUCE_BLOCK / es, nblk = (count + blk - 1) / blk;
    for (size_t k = 0; k < nblk; k++) {
        size_t off = block_at(k, nblk, back) * blk;
        size_t m = count - off < blk ? count - off : blk;
        char *d = (char *)dst + off * es;
        red2(dtype, op, d, (const char *)srcs[0] + off * es, (const char *)srcs[1] + off * es, m,
             back);
        for (int j = 2; j < nsrc; j++)
            red2(dtype, op, d, d, (const char *)srcs[j] + off * es, m, back);
    }
}

void vsym_coll_reduce(vsym_dtype_t dtype, vsym_red_op_t op, void *dst, const void *const *srcs,
                      int nsrc, size_t count)
{
    if (nsrc > 1 && count * vsym_dtype_size(dtype) <= VSYM_COLL_RED_SMALL &&
        dtype != VSYM_DTYPE_F16 && dtype != VSYM_DTYPE_BF16) {
        RED_DISPATCH(redn, op, dst, srcs, nsrc, count)
        return;
    }
    reduce_dir(dtype, op, dst, srcs, nsrc, count, red_direction(&dst, 1, srcs, nsrc));
}

void vsym_coll_reduce_publish(vsym_dtype_t dtype, vsym_red_op_t op, void *dst,
                              const void *const *srcs, int nsrc, size_t count)
{
    void *d[1] = {dst};
    if (vsym_util_publish_streams(count * vsym_dtype_size(dtype)) &&
        vsym_coll_reduce_push_stream(dtype, op, d, 1, srcs, nsrc, count)) {
        vsym_util_copy_fence();
        return;
    }
    vsym_coll_reduce(dtype, op, dst, srcs, nsrc, count);
}

void vsym_coll_reduce_push(vsym_dtype_t dtype, vsym_red_op_t op, void *const *dsts, int ndst,
                           const void *const *srcs, int nsrc, size_t count)
{
    size_t es = vsym_dtype_size(dtype), blk = VSYM_REDUCE_BLOCK / es;
    size_t nblk = (count + blk - 1) / blk;
    _Alignas(64) char accbuf[VSYM_REDUCE_BLOCK + 4096], last[VSYM_REDUCE_BLOCK];
    char *acc = vsym_coll_unaliased(accbuf, srcs[0]);
    int inplace = 0, back = red_direction(dsts, ndst, srcs, nsrc);
    for (int d = 0; d < ndst; d++)
        for (int k = 0; k < nsrc; k++)
            inplace |= dsts[d] == srcs[k];
    for (size_t k = 0; k < nblk; k++) {
        size_t off = block_at(k, nblk, back) * blk;
        size_t m = count - off < blk ? count - off : blk, len = m * es;
        int d = 0, heads = 0;
        if (nsrc > 1 && dtype != VSYM_DTYPE_F16 && dtype != VSYM_DTYPE_BF16) {
            /* The sources but the last into acc (in L1), then the last one pass per two
             * destinations: the same order of operations as vsym_coll_reduce. */
            const char *a = (const char *)srcs[0] + off * es;
            const char *b = (const char *)srcs[nsrc - 1] + off * es;
            if (nsrc > 2) {
                const void *head[nsrc - 1];
                for (int j = 0; j < nsrc - 1; j++)
                    head[j] = (const char *)srcs[j] + off * es;
                reduce_dir(dtype, op, acc, head, nsrc - 1, m, back);
                a = acc;
                heads = 1;
            }
            if (inplace && ndst > 2) {
                /* The first pass overwrites sources the later ones would read: read them
                 * into L1 first. */
                memcpy(last, b, len);
                b = last;
                if (a != acc) {
                    memcpy(acc, a, len);
                    a = acc;
                }
            }
            for (; d + 1 < ndst; d += 2)
                red2x(dtype, op, (char *)dsts[d] + off * es, (char *)dsts[d + 1] + off * es, a, b,
                      m, back);
        }
        if (nsrc == 2 && (dtype == VSYM_DTYPE_F16 || dtype == VSYM_DTYPE_BF16) && half_vec(dtype) &&
            !(inplace && ndst > 2)) {
            /* Two half-precision sources: one pass per two destinations, as above (in place
             * with more destinations, through acc below: a first pass would overwrite a
             * source the next one reads). */
            const uint16_t *a = (const uint16_t *)srcs[0] + off;
            const uint16_t *b = (const uint16_t *)srcs[1] + off;
            for (; d + 1 < ndst; d += 2)
                half_pair2(dtype, op, (uint16_t *)dsts[d] + off, (uint16_t *)dsts[d + 1] + off, a,
                           b, m);
        }
        if (d < ndst) {
            /* The odd destination takes the result from the first; f16/bf16 or one source:
             * reduce into acc (no destination is written yet), then copy. */
            const char *from = (const char *)dsts[0] + off * es;
            if (d == 0 && heads) {
                /* One destination: the last source into the sources before it, in acc. */
                red2(dtype, op, acc, acc, (const char *)srcs[nsrc - 1] + off * es, m, back);
                from = acc;
            } else if (d == 0) {
                const void *part[nsrc];
                for (int j = 0; j < nsrc; j++)
                    part[j] = (const char *)srcs[j] + off * es;
                reduce_dir(dtype, op, acc, part, nsrc, m, back);
                from = acc;
            }
            for (; d < ndst; d++)
                memcpy((char *)dsts[d] + off * es, from, len);
        }
    }
}

#if defined(__x86_64__)
/* The streaming pass of vsym_coll_reduce_push_stream for f32: every source loaded and combined in
 * rank order in registers, four vectors (four lines) at a time, the result stored into every
 * destination with non-temporal stores. A 16 MiB all-reduce between 2 ranks from symmetric
 * buffers on the 2-core AMD host: 0.74-1.01 ms against 1.72-2.16 reducing into a block and
 * streaming its copies; one vector at a time 1.20-1.34, eight 0.87-1.30; fetching the sources
 * ahead with prefetchnta made each version slower. */
#define F32W_V(op, a, b)                                                                           \
    ((op) == VSYM_RED_MIN                                                                          \
         ? _mm512_mask_blend_ps(_mm512_cmp_ps_mask((b), (a), _CMP_LT_OQ), (a), (b))                \
     : (op) == VSYM_RED_MAX                                                                        \
         ? _mm512_mask_blend_ps(_mm512_cmp_ps_mask((b), (a), _CMP_GT_OQ), (a), (b))                \
         : _mm512_add_ps((a), (b)))

/* n a multiple of 16, every d[k] 64-byte aligned. */
__attribute__((target("avx512f"))) static void f32_push_stream_512(vsym_red_op_t op,
                                                                   float *const *d, int nd,
                                                                   const float *const *s, int ns,
                                                                   size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512 v[4];
        for (int u = 0; u < 4; u++)
            v[u] = _mm512_loadu_ps(s[0] + i + 16 * u);
        for (int k = 1; k < ns; k++)
            for (int u = 0; u < 4; u++)
                v[u] = F32W_V(op, v[u], _mm512_loadu_ps(s[k] + i + 16 * u));
        for (int k = 0; k < nd; k++)
            for (int u = 0; u < 4; u++)
                _mm512_stream_ps(d[k] + i + 16 * u, v[u]);
    }
    for (; i < n; i += 16) {
        __m512 v = _mm512_loadu_ps(s[0] + i);
        for (int k = 1; k < ns; k++)
            v = F32W_V(op, v, _mm512_loadu_ps(s[k] + i));
        for (int k = 0; k < nd; k++)
            _mm512_stream_ps(d[k] + i, v);
    }
    _mm_sfence();
}

/* The same for bf16, two elements per 32-bit word as in the bf16 kernels above: the even and the
 * odd elements of 16 words accumulated in f32 across the sources, rounded once, joined, and
 * streamed out; four vectors of words (four lines) at a time (16 MiB between 2 ranks: 1.25-1.64 ms
 * against 2.37-2.48 through the block buffer). n a multiple of 32. */
/* BF16_JOIN on 16 words: the evens and the odds rounded to nearest even (no NaN case, as
 * there) and joined. */
__attribute__((target("avx512f"))) static inline __m512i bf16w_join(__m512 e, __m512 o)
{
    const __m512i one = _mm512_set1_epi32(1), bias = _mm512_set1_epi32(0x7fff);
    __m512i eb = _mm512_castps_si512(e), ob = _mm512_castps_si512(o);
    eb = _mm512_add_epi32(_mm512_add_epi32(eb, bias),
                          _mm512_and_si512(_mm512_srli_epi32(eb, 16), one));
    ob = _mm512_add_epi32(_mm512_add_epi32(ob, bias),
                          _mm512_and_si512(_mm512_srli_epi32(ob, 16), one));
    return _mm512_or_si512(_mm512_and_si512(ob, _mm512_set1_epi32((int)0xffff0000u)),
                           _mm512_srli_epi32(eb, 16));
}

__attribute__((target("avx512f"))) static void bf16_push_stream_512(vsym_red_op_t op,
                                                                    uint16_t *const *d, int nd,
                                                                    const uint16_t *const *s,
                                                                    int ns, size_t n)
{
    const __m512i hi = _mm512_set1_epi32((int)0xffff0000u);
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        __m512 e[4], o[4];
        for (int u = 0; u < 4; u++) {
            __m512i w = _mm512_loadu_si512(s[0] + i + 32 * u);
            e[u] = _mm512_castsi512_ps(_mm512_slli_epi32(w, 16));
            o[u] = _mm512_castsi512_ps(_mm512_and_si512(w, hi));
        }
        for (int k = 1; k < ns; k++)
            for (int u = 0; u < 4; u++) {
                __m512i w = _mm512_loadu_si512(s[k] + i + 32 * u);
                e[u] = F32W_V(op, e[u], _mm512_castsi512_ps(_mm512_slli_epi32(w, 16)));
                o[u] = F32W_V(op, o[u], _mm512_castsi512_ps(_mm512_and_si512(w, hi)));
            }
        __m512i r[4];
        for (int u = 0; u < 4; u++)
            r[u] = bf16w_join(e[u], o[u]);
        for (int k = 0; k < nd; k++)
            for (int u = 0; u < 4; u++)
                _mm512_stream_si512((void *)(d[k] + i + 32 * u), r[u]);
    }
    for (; i < n; i += 32) {
        __m512i w = _mm512_loadu_si512(s[0] + i);
        __m512 e = _mm512_castsi512_ps(_mm512_slli_epi32(w, 16));
        __m512 o = _mm512_castsi512_ps(_mm512_and_si512(w, hi));
        for (int k = 1; k < ns; k++) {
            w = _mm512_loadu_si512(s[k] + i);
            e = F32W_V(op, e, _mm512_castsi512_ps(_mm512_slli_epi32(w, 16)));
            o = F32W_V(op, o, _mm512_castsi512_ps(_mm512_and_si512(w, hi)));
        }
        __m512i r = bf16w_join(e, o);
        for (int k = 0; k < nd; k++)
            _mm512_stream_si512((void *)(d[k] + i), r);
    }
    _mm_sfence();
}

/* f16 (F16C's conversions, as the f16 kernels above): a line of 32 elements converted to two
 * vectors of floats per source, combined, rounded once and streamed out. n a multiple of 32. */
__attribute__((target("avx512f"))) static void f16_push_stream_512(vsym_red_op_t op,
                                                                   uint16_t *const *d, int nd,
                                                                   const uint16_t *const *s, int ns,
                                                                   size_t n)
{
    for (size_t i = 0; i < n; i += 32) {
        __m512 lo = F16W_LOAD(s[0] + i), hi = F16W_LOAD(s[0] + i + 16);
        for (int k = 1; k < ns; k++) {
            lo = F32W_V(op, lo, F16W_LOAD(s[k] + i));
            hi = F32W_V(op, hi, F16W_LOAD(s[k] + i + 16));
        }
        __m512i r = _mm512_inserti64x4(_mm512_castsi256_si512(F16W_HALF(lo)), F16W_HALF(hi), 1);
        for (int k = 0; k < nd; k++)
            _mm512_stream_si512((void *)(d[k] + i), r);
    }
    _mm_sfence();
}

/* f64, four lines at a time as f32. n a multiple of 8. */
#define F64W_V(op, a, b)                                                                           \
    ((op) == VSYM_RED_MIN                                                                          \
         ? _mm512_mask_blend_pd(_mm512_cmp_pd_mask((b), (a), _CMP_LT_OQ), (a), (b))                \
     : (op) == VSYM_RED_MAX                                                                        \
         ? _mm512_mask_blend_pd(_mm512_cmp_pd_mask((b), (a), _CMP_GT_OQ), (a), (b))                \
         : _mm512_add_pd((a), (b)))

__attribute__((target("avx512f"))) static void f64_push_stream_512(vsym_red_op_t op,
                                                                   double *const *d, int nd,
                                                                   const double *const *s, int ns,
                                                                   size_t n)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512d v[4];
        for (int u = 0; u < 4; u++)
            v[u] = _mm512_loadu_pd(s[0] + i + 8 * u);
        for (int k = 1; k < ns; k++)
            for (int u = 0; u < 4; u++)
                v[u] = F64W_V(op, v[u], _mm512_loadu_pd(s[k] + i + 8 * u));
        for (int k = 0; k < nd; k++)
            for (int u = 0; u < 4; u++)
                _mm512_stream_pd(d[k] + i + 8 * u, v[u]);
    }
    for (; i < n; i += 8) {
        __m512d v = _mm512_loadu_pd(s[0] + i);
        for (int k = 1; k < ns; k++)
            v = F64W_V(op, v, _mm512_loadu_pd(s[k] + i));
        for (int k = 0; k < nd; k++)
            _mm512_stream_pd(d[k] + i, v);
    }
    _mm_sfence();
}

/* The integer dtypes (kind 0: i32, 1: i64, 2: u64), four lines at a time: sums and products
 * wrap as the integer kernels' do, min and max compare signed or unsigned as the dtype is. */
__attribute__((target("avx512f,avx512dq"), always_inline)) static inline __m512i
int_v(int kind, vsym_red_op_t op, __m512i a, __m512i b)
{
    switch (op) {
    case VSYM_RED_MIN:
        return kind == 0   ? _mm512_min_epi32(a, b)
               : kind == 1 ? _mm512_min_epi64(a, b)
                           : _mm512_min_epu64(a, b);
    case VSYM_RED_MAX:
        return kind == 0   ? _mm512_max_epi32(a, b)
               : kind == 1 ? _mm512_max_epi64(a, b)
                           : _mm512_max_epu64(a, b);
    case VSYM_RED_PROD:
        return kind == 0 ? _mm512_mullo_epi32(a, b) : _mm512_mullo_epi64(a, b);
    default:
        return kind == 0 ? _mm512_add_epi32(a, b) : _mm512_add_epi64(a, b);
    }
}

/* nbytes a multiple of 64. */
__attribute__((target("avx512f,avx512dq"))) static void
int_push_stream_512(int kind, vsym_red_op_t op, char *const *d, int nd, const char *const *s,
                    int ns, size_t nbytes)
{
    size_t i = 0;
    for (; i + 256 <= nbytes; i += 256) {
        __m512i v[4];
        for (int u = 0; u < 4; u++)
            v[u] = _mm512_loadu_si512(s[0] + i + 64 * u);
        for (int k = 1; k < ns; k++)
            for (int u = 0; u < 4; u++)
                v[u] = int_v(kind, op, v[u], _mm512_loadu_si512(s[k] + i + 64 * u));
        for (int k = 0; k < nd; k++)
            for (int u = 0; u < 4; u++)
                _mm512_stream_si512((void *)(d[k] + i + 64 * u), v[u]);
    }
    for (; i < nbytes; i += 64) {
        __m512i v = _mm512_loadu_si512(s[0] + i);
        for (int k = 1; k < ns; k++)
            v = int_v(kind, op, v, _mm512_loadu_si512(s[k] + i));
        for (int k = 0; k < nd; k++)
            _mm512_stream_si512((void *)(d[k] + i), v);
    }
    _mm_sfence();
}

/* Whether the CPU has AVX-512DQ (the 64-bit products), asked once. */
static int have_avx512dq(void)
{
    static int cached = -1;
    int c = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (c < 0) {
        c = __builtin_cpu_supports("avx512dq") != 0;
        __atomic_store_n(&cached, c, __ATOMIC_RELAXED);
    }
    return c;
}
#endif

int vsym_coll_reduce_push_stream(vsym_dtype_t dtype, vsym_red_op_t op, void *const *dsts, int ndst,
                                 const void *const *srcs, int nsrc, size_t count)
{
#if defined(__x86_64__)
    /* f16 from one source would pass through floats, which quiets a signaling NaN that the
     * copy vsym_coll_reduce makes keeps; the integer kernels need AVX-512DQ's 64-bit products. */
    const int ints = dtype == VSYM_DTYPE_I32 || dtype == VSYM_DTYPE_I64 || dtype == VSYM_DTYPE_U64;
    const int known = dtype == VSYM_DTYPE_F32 || dtype == VSYM_DTYPE_BF16 ||
                      dtype == VSYM_DTYPE_F64 || (dtype == VSYM_DTYPE_F16 && nsrc > 1) ||
                      (ints && have_avx512dq());
    if (!known || !have_avx512bw() || ndst < 1 || ndst > 64 || nsrc < 1 || nsrc > 64 || count < 64)
        return 0;
    /* The destinations on one offset modulo 64 bytes, a whole number of elements: the head up
     * to the next 64 bytes and the tail after the last whole vector the ordinary way. */
    const size_t es = vsym_dtype_size(dtype), vec = 64 / es;
    const uintptr_t mis = (uintptr_t)dsts[0] & 63;
    if (mis % es) return 0;
    for (int k = 1; k < ndst; k++)
        if (((uintptr_t)dsts[k] & 63) != mis) return 0;
    size_t head = mis ? (64 - mis) / es : 0, body = (count - head) / vec * vec;
    void *d[64], *dh[64];
    const void *s[64], *sh[64];
    for (int k = 0; k < ndst; k++) {
        dh[k] = dsts[k];
        d[k] = (char *)dsts[k] + head * es;
    }
    for (int k = 0; k < nsrc; k++) {
        sh[k] = srcs[k];
        s[k] = (const char *)srcs[k] + head * es;
    }
    if (head) vsym_coll_reduce_push(dtype, op, dh, ndst, sh, nsrc, head);
    if (dtype == VSYM_DTYPE_BF16)
        bf16_push_stream_512(op, (uint16_t *const *)d, ndst, (const uint16_t *const *)s, nsrc,
                             body);
    else if (dtype == VSYM_DTYPE_F16)
        f16_push_stream_512(op, (uint16_t *const *)d, ndst, (const uint16_t *const *)s, nsrc, body);
    else if (dtype == VSYM_DTYPE_F64)
        f64_push_stream_512(op, (double *const *)d, ndst, (const double *const *)s, nsrc, body);
    else if (ints)
        int_push_stream_512(dtype == VSYM_DTYPE_I32   ? 0
                            : dtype == VSYM_DTYPE_I64 ? 1
                                                      : 2,
                            op, (char *const *)d, ndst, (const char *const *)s, nsrc, body * es);
    else
        f32_push_stream_512(op, (float *const *)d, ndst, (const float *const *)s, nsrc, body);
    if (head + body < count) {
        for (int k = 0; k < ndst; k++)
            dh[k] = (char *)d[k] + body * es;
        for (int k = 0; k < nsrc; k++)
            sh[k] = (const char *)s[k] + body * es;
        vsym_coll_reduce_push(dtype, op, dh, ndst, sh, nsrc, count - head - body);
    }
    return 1;
#else
    (void)dtype, (void)op, (void)dsts, (void)ndst, (void)srcs, (void)nsrc, (void)count;
    return 0;
#endif
}
