/* The pure pieces of lib/coll: half-precision conversions, reduction kernels, the TP x DP rank
 * formulas and valid op / mode tables, the autotune table file, the all-reduce algorithm rule. */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness.h"
#include "coll/coll_internal.h"

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void test_half(void)
{
    /* Every f16 value survives the round trip through f32 (NaNs stay NaNs). */
    for (uint32_t h = 0; h < 65536; h++) {
        float f = vsym_coll_f16_to_f32((uint16_t)h);
        uint16_t back = vsym_coll_f32_to_f16(f);
        if (isnan(f))
            VSYM_CHECK((back & 0x7c00) == 0x7c00 && (back & 0x3ff), "NaN %04x -> %04x", h, back);
        else
            VSYM_CHECK(back == h, "f16 %04x -> %g -> %04x", h, (double)f, back);
    }
    /* Round to nearest even against the compiler's conversion, on random and halfway bits. */
    srand(7);
    for (int i = 0; i < 2000000; i++) {
        uint32_t u = ((uint32_t)rand() << 16) ^ (uint32_t)rand();
        if (i & 1) u = (u & ~0x1fffu) | 0x1000u; /* exactly halfway between two f16 normals */
        float f = bitsf(u);
        if (isnan(f)) continue;
        _Float16 ref = (_Float16)f;
        uint16_t rb;
        memcpy(&rb, &ref, 2);
        VSYM_CHECK(vsym_coll_f32_to_f16(f) == rb, "f32 %08x -> f16 %04x, expected %04x", u,
                   vsym_coll_f32_to_f16(f), rb);
    }
    VSYM_CHECK(vsym_coll_f32_to_f16(65520.0f) == 0x7c00, "65520 rounds to infinity");
    VSYM_CHECK(vsym_coll_f32_to_f16(65519.0f) == 0x7bff, "65519 rounds to 65504");
    /* bf16: halfway cases go to the even neighbour. */
    VSYM_CHECK(vsym_coll_f32_to_bf16(bitsf(0x3f808000u)) == 0x3f80, "bf16 halfway down");
    VSYM_CHECK(vsym_coll_f32_to_bf16(bitsf(0x3f818000u)) == 0x3f82, "bf16 halfway up");
    VSYM_CHECK(vsym_coll_f32_to_bf16(bitsf(0x3f808001u)) == 0x3f81, "bf16 above halfway");
    VSYM_CHECK(fbits(vsym_coll_bf16_to_f32(0x3f80)) == 0x3f800000u, "bf16 1.0");
    VSYM_CHECK(isnan(vsym_coll_bf16_to_f32(vsym_coll_f32_to_bf16(NAN))), "bf16 NaN");
}

static void test_reduce(void)
{
    /* f16 accumulates in f32 and rounds once: 2048 + 1 + 1 = 2050 (step by step in f16 it
     * would stay 2048). */
    uint16_t a[3] = {vsym_coll_f32_to_f16(2048), vsym_coll_f32_to_f16(1), vsym_coll_f32_to_f16(1)};
    uint16_t out;
    const void *srcs[3] = {&a[0], &a[1], &a[2]};
    vsym_coll_reduce(VSYM_DTYPE_F16, VSYM_RED_SUM, &out, srcs, 3, 1);
    VSYM_CHECK(vsym_coll_f16_to_f32(out) == 2050.0f, "f16 sum %g",
               (double)vsym_coll_f16_to_f32(out));
    uint16_t b[3] = {vsym_coll_f32_to_bf16(256), vsym_coll_f32_to_bf16(1),
                     vsym_coll_f32_to_bf16(1)};
    const void *bsrcs[3] = {&b[0], &b[1], &b[2]};
    vsym_coll_reduce(VSYM_DTYPE_BF16, VSYM_RED_SUM, &out, bsrcs, 3, 1);
    VSYM_CHECK(vsym_coll_bf16_to_f32(out) == 258.0f, "bf16 sum %g",
               (double)vsym_coll_bf16_to_f32(out));
    /* Integer sums wrap, products, min, max, on long vectors (several kernel blocks). */
    enum { N = 5000 };
    static int32_t x[N], y[N], z[N];
    static uint64_t u[N], v[N], w[N];
    for (int i = 0; i < N; i++) {
        x[i] = i % 2 ? INT32_MAX : -i;
        y[i] = i % 2 ? 1 : i % 7;
        u[i] = (uint64_t)i * 3;
        v[i] = (uint64_t)(N - i);
    }
    const void *xs[2] = {x, y}, *us[2] = {u, v};
    vsym_coll_reduce(VSYM_DTYPE_I32, VSYM_RED_SUM, z, xs, 2, N);
    for (int i = 0; i < N; i++)
        VSYM_CHECK(z[i] == (i % 2 ? INT32_MIN : -i + i % 7), "i32 sum %d: %d", i, z[i]);
    vsym_coll_reduce(VSYM_DTYPE_I32, VSYM_RED_PROD, z, xs, 2, N);
    for (int i = 0; i < N; i++)
        VSYM_CHECK(z[i] == (i % 2 ? INT32_MAX : -i * (i % 7)), "i32 prod %d: %d", i, z[i]);
    vsym_coll_reduce(VSYM_DTYPE_U64, VSYM_RED_MIN, w, us, 2, N);
    for (int i = 0; i < N; i++)
        VSYM_CHECK(w[i] == (u[i] < v[i] ? u[i] : v[i]), "u64 min %d", i);
    vsym_coll_reduce(VSYM_DTYPE_U64, VSYM_RED_MAX, w, us, 2, N);
    for (int i = 0; i < N; i++)
        VSYM_CHECK(w[i] == (u[i] > v[i] ? u[i] : v[i]), "u64 max %d", i);
    /* In place: the destination is the first source. */
    vsym_coll_reduce(VSYM_DTYPE_U64, VSYM_RED_SUM, u, us, 2, N);
    for (int i = 0; i < N; i++)
        VSYM_CHECK(u[i] == (uint64_t)i * 3 + (uint64_t)(N - i), "u64 sum in place %d", i);
    /* Many sources, f64, fixed left-to-right order. */
    double d[6][3];
    const void *ds[6];
    for (int k = 0; k < 6; k++) {
        for (int i = 0; i < 3; i++)
            d[k][i] = (k + 1) * 0.1 + i;
        ds[k] = d[k];
    }
    double r[3];
    vsym_coll_reduce(VSYM_DTYPE_F64, VSYM_RED_SUM, r, ds, 6, 3);
    for (int i = 0; i < 3; i++) {
        double e = d[0][i];
        for (int k = 1; k < 6; k++)
            e += d[k][i];
        VSYM_CHECK(memcmp(&e, &r[i], 8) == 0, "f64 order %d", i);
    }
    VSYM_CHECK_STATUS(vsym_coll_check_dtype_op(VSYM_DTYPE_BF16, VSYM_RED_PROD, "t"),
                      VSYM_ERR_BAD_OP, "integer");
    VSYM_CHECK_STATUS(vsym_coll_check_dtype_op((vsym_dtype_t)77, VSYM_RED_SUM, "t"),
                      VSYM_ERR_BAD_DTYPE, "dtype");
    VSYM_CHECK(vsym_dtype_size(VSYM_DTYPE_BF16) == 2 && vsym_dtype_size((vsym_dtype_t)9) == 0,
               "dtype sizes");
}

/* FlashInfer's formulas, written out as the reference. */
static void test_topology(void)
{
    int checked = 0;
    for (int W = 1; W <= 16; W *= 2)
        for (int L = 1; L <= W; L *= 2)
            for (int ltp = 1; ltp <= L; ltp *= 2)
                for (int itp = 1; itp <= W / L; itp *= 2) {
                    vsym_fused_topo_t g = {ltp, 0, itp, 0}, t;
                    VSYM_CHECK_OK(vsym_fused_topo_resolve(W, L, &g, &t));
                    int ldp = L / ltp, idp = W / L / itp;
                    VSYM_CHECK(t.local_dp_size == ldp && t.inter_dp_size == idp, "derive");
                    for (int wr = 0; wr < W; wr++) {
                        int local_rank = wr % L, inter_rank = wr / L;
                        int local_tp = local_rank % ltp, local_dp = local_rank / ltp;
                        int inter_tp = inter_rank % itp, inter_dp = inter_rank / itp;
                        int tp_ref = local_tp + inter_tp * ltp, dp_ref = local_dp + inter_dp * ldp;
                        int tp, dp;
                        vsym_fused_topo_ranks(&t, wr, &tp, &dp);
                        VSYM_CHECK(tp == tp_ref && dp == dp_ref, "W %d L %d rank %d", W, L, wr);
                        VSYM_CHECK(vsym_fused_topo_world_rank(&t, tp, dp) == wr, "inverse");
                    }
                    unsigned ops = vsym_fused_topo_valid_ops(&t), modes;
                    int TP = ltp * itp, DP = ldp * idp;
                    VSYM_CHECK(!!(ops & (1u << VSYM_FUSED_ALLREDUCE)) == (DP == 1), "AR valid");
                    VSYM_CHECK(!!(ops & (1u << VSYM_FUSED_ALLGATHER)) == (TP == 1), "AG valid");
                    VSYM_CHECK(!!(ops & (1u << VSYM_FUSED_ALLREDUCE_ALLGATHER)) ==
                                   (TP > 1 && DP > 1),
                               "AR_AG valid");
                    modes = vsym_fused_topo_valid_modes(&t);
                    VSYM_CHECK(!!(modes & (1u << VSYM_FUSED_TWOSHOT)) == (ltp > 1), "twoshot");
                    VSYM_CHECK(!!(modes & (1u << VSYM_FUSED_FEWEST_BYTES)) == (itp > 1), "fb");
                    VSYM_CHECK(modes & (1u << VSYM_FUSED_ONESHOT), "oneshot always valid");
                    checked++;
                }
    vsym_fused_topo_t t, g = {3, 0, 0, 0};
    VSYM_CHECK_STATUS(vsym_fused_topo_resolve(4, 4, &g, &t), VSYM_ERR_BAD_LAYOUT, "divide");
    g = (vsym_fused_topo_t){2, 3, 0, 0};
    VSYM_CHECK_STATUS(vsym_fused_topo_resolve(4, 4, &g, &t), VSYM_ERR_BAD_LAYOUT, "x");
    VSYM_CHECK_STATUS(vsym_fused_topo_resolve(6, 4, NULL, &t), VSYM_ERR_BAD_LAYOUT, "nodes");
    VSYM_CHECK_OK(vsym_fused_topo_resolve(8, 4, NULL, &t));
    VSYM_CHECK(t.local_tp_size == 4 && t.local_dp_size == 1 && t.inter_tp_size == 1 &&
                   t.inter_dp_size == 2,
               "defaults: TP inside the node, DP across");
    printf("topology: %d factorisations checked\n", checked);
}

/* The autotune's choice from interleaved rounds (vsym_coll_tune_pick). */
static void test_tune_pick(void)
{
    enum { B = VSYM_FUSED_BASELINE, O = VSYM_FUSED_ONESHOT, T = VSYM_FUSED_TWOSHOT };
    const unsigned all = (1u << B) | (1u << O) | (1u << T);
    double rt[VSYM_FUSED_MODE_COUNT][VSYM_TUNE_ROUNDS], t = -1;
    const double base[VSYM_TUNE_ROUNDS] = {10, 20, 10, 40, 10};
    /* The machine's speed drifts from round to round; each mode is timed beside the baseline. */
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++) {
        rt[B][q] = base[q];
        rt[O][q] = base[q] * (q == 3 ? 1.5 : 0.8); /* 0.8 of the baseline in four rounds of five */
        rt[T][q] = base[q] * 0.9;
        rt[VSYM_FUSED_FEWEST_BYTES][q] = 0.001; /* not valid: never picked */
    }
    VSYM_CHECK(vsym_coll_tune_pick(rt, all, &t) == O && t == 8.0,
               "smallest median ratio to the baseline: oneshot (its median time 8.0): got %g", t);
    /* One-shot's median time is below 0.90 of the baseline's (35 against 40), but round by
     * round it is 1.1, 1.1, 0.875, 0.99, 0.99 of it: its fast rounds came when the machine
     * was fast. Two-shot is 0.92 of the baseline in every round: within the margin. */
    const double b2[VSYM_TUNE_ROUNDS] = {10, 10, 40, 40, 40},
                 o2[VSYM_TUNE_ROUNDS] = {11, 11, 35, 39.5, 39.5};
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++) {
        rt[B][q] = b2[q];
        rt[O][q] = o2[q];
        rt[T][q] = b2[q] * 0.92;
    }
    VSYM_CHECK(vsym_coll_tune_pick(rt, all, &t) == B && t == 40.0,
               "no fused mode 10%% faster round by round: the baseline (median 40): got %g", t);
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++)
        rt[T][q] = rt[B][q] * 0.89;
    VSYM_CHECK(vsym_coll_tune_pick(rt, all, &t) == T,
               "0.89 of the baseline in every round: picked");
    /* One slow round of five does not decide. */
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++)
        rt[T][q] = rt[B][q] * (q == 0 ? 3.0 : 0.7);
    VSYM_CHECK(vsym_coll_tune_pick(rt, all, &t) == T, "median, not mean");
    /* Without a valid baseline: the smallest median time. */
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++) {
        rt[O][q] = 5 + q;  /* median 7 */
        rt[T][q] = 10 - q; /* median 8 */
    }
    VSYM_CHECK(vsym_coll_tune_pick(rt, (1u << O) | (1u << T), &t) == O && t == 7.0,
               "no baseline: the fastest median");
    /* The second look: kept while the mode's median ratio to the rule's mode (here the baseline,
     * then the one-shot) in the new rounds is below 1. */
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++) {
        rt[B][q] = b2[q];
        rt[T][q] = b2[q] * (q < 2 ? 0.7 : 0.98); /* median 0.98: faster, if barely */
    }
    VSYM_CHECK(vsym_coll_tune_confirm(rt, T, B) == 1,
               "0.98 of the baseline in the second look: kept");
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++)
        rt[T][q] = b2[q] * (q < 2 ? 0.7 : 1.05); /* two fast rounds, three slow: median 1.05 */
    VSYM_CHECK(vsym_coll_tune_confirm(rt, T, B) == 0, "1.05 in three rounds of five: dropped");
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++)
        rt[T][q] = b2[q];
    VSYM_CHECK(vsym_coll_tune_confirm(rt, T, B) == 0, "as fast as the baseline: dropped");
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++) {
        rt[O][q] = b2[q] * 0.8;
        rt[B][q] = b2[q] * (q == 4 ? 0.5 : 0.9); /* the baseline against the one-shot */
    }
    VSYM_CHECK(vsym_coll_tune_confirm(rt, B, O) == 0 && vsym_coll_tune_confirm(rt, O, B) == 1,
               "the baseline 1.125x the one-shot's time in four rounds of five: the one-shot");
    for (int q = 0; q < VSYM_TUNE_ROUNDS; q++)
        rt[T][q] = b2[q] * 0.85; /* faster than the baseline, slower than the one-shot */
    VSYM_CHECK(
        vsym_coll_tune_confirm(rt, T, O) == 0,
        "two-shot against the one-shot (the rule's mode), not against the baseline: dropped");
    printf("tune pick: checked\n");
}

static void test_tune_table(void)
{
    char path[] = "/tmp/vsym_coll_tune_XXXXXX";
    int fd = mkstemp(path);
    VSYM_CHECK(fd >= 0, "mkstemp");
    vsym_test_tmp_keep(path);
    close(fd);
    vsym_tune_table_t t, u;
    vsym_coll_tune_init(&t, "world=4 local=4 local_tp=2 local_dp=2 inter_tp=1 inter_dp=1 host=h");
    VSYM_CHECK(vsym_coll_tune_lookup(&t, VSYM_FUSED_ALLREDUCE_ALLGATHER, 4096) == -1, "empty");
    t.mode[VSYM_FUSED_ALLREDUCE_ALLGATHER][10] = VSYM_FUSED_ONESHOT;
    t.mode[VSYM_FUSED_ALLREDUCE_ALLGATHER][20] = VSYM_FUSED_TWOSHOT;
    t.time_us[VSYM_FUSED_ALLREDUCE_ALLGATHER][20] = 123.5f;
    VSYM_CHECK(vsym_coll_tune_bucket(1000) == 10 && vsym_coll_tune_bucket(1500) == 11, "bucket");
    /* The bucket is round(log2(bytes)): against libm's at every size up to 1 MiB, and at and
     * around the rounding points 2^k x sqrt(2) and the powers of two beyond. */
    for (size_t x = 2; x <= ((size_t)1 << 20); x++) {
        int want = (int)lround(log2((double)x));
        if (want > VSYM_TUNE_MAX_LOG2) want = VSYM_TUNE_MAX_LOG2;
        if (vsym_coll_tune_bucket(x) != want)
            VSYM_CHECK(0, "bucket of %zu: %d, round(log2) %d", x, vsym_coll_tune_bucket(x), want);
    }
    for (int k = 20; k < 40; k++) {
        size_t mid = (size_t)ceil(ldexp(sqrt(2.0), k)), pow2 = (size_t)1 << k;
        int cap = VSYM_TUNE_MAX_LOG2;
        VSYM_CHECK(vsym_coll_tune_bucket(mid - 1) == (k < cap ? k : cap) &&
                       vsym_coll_tune_bucket(mid) == (k + 1 < cap ? k + 1 : cap) &&
                       vsym_coll_tune_bucket(pow2) == (k < cap ? k : cap),
                   "bucket around 2^%d x sqrt(2)", k);
    }
    VSYM_CHECK(vsym_coll_tune_lookup(&t, VSYM_FUSED_ALLREDUCE_ALLGATHER, 8) == VSYM_FUSED_ONESHOT,
               "below the table: its first entry");
    VSYM_CHECK(vsym_coll_tune_lookup(&t, VSYM_FUSED_ALLREDUCE_ALLGATHER, 1 << 19) ==
                   VSYM_FUSED_TWOSHOT,
               "nearest");
    VSYM_CHECK(vsym_coll_tune_lookup(&t, VSYM_FUSED_ALLREDUCE_ALLGATHER, (size_t)1 << 30) ==
                   VSYM_FUSED_TWOSHOT,
               "above the table: its last entry");
    VSYM_CHECK_OK(vsym_coll_tune_save(&t, path));
    vsym_coll_tune_init(&u, t.key);
    VSYM_CHECK_OK(vsym_coll_tune_load(&u, path));
    VSYM_CHECK(memcmp(u.mode, t.mode, sizeof(t.mode)) == 0, "modes survive save and load");
    VSYM_CHECK(u.time_us[VSYM_FUSED_ALLREDUCE_ALLGATHER][20] == 123.5f, "times survive");
    vsym_coll_tune_init(&u, "world=4 local=4 local_tp=4 local_dp=1 inter_tp=1 inter_dp=1 host=h");
    VSYM_CHECK_STATUS(vsym_coll_tune_load(&u, path), VSYM_ERR_NOT_FOUND, "no table");
    /* Several tables in one file: saving one keeps the others, and replaces its own. */
    vsym_tune_table_t other;
    vsym_coll_tune_init(&other, u.key);
    other.mode[VSYM_FUSED_ALLREDUCE][5] = VSYM_FUSED_BASELINE;
    VSYM_CHECK_OK(vsym_coll_tune_save(&other, path));
    t.mode[VSYM_FUSED_ALLREDUCE_ALLGATHER][10] = VSYM_FUSED_BASELINE;
    VSYM_CHECK_OK(vsym_coll_tune_save(&t, path));
    vsym_coll_tune_init(&u, other.key);
    VSYM_CHECK_OK(vsym_coll_tune_load(&u, path));
    VSYM_CHECK(u.mode[VSYM_FUSED_ALLREDUCE][5] == VSYM_FUSED_BASELINE, "the other table is kept");
    vsym_coll_tune_init(&u, t.key);
    VSYM_CHECK_OK(vsym_coll_tune_load(&u, path));
    VSYM_CHECK(memcmp(u.mode, t.mode, sizeof(t.mode)) == 0, "this table is replaced");
    FILE *fp = fopen(path, "w");
    fprintf(fp, "vsym-autotune 1\nkey %s\nentry allreduce 3 warp 1.0\nend\n", t.key);
    fclose(fp);
    vsym_coll_tune_init(&u, t.key);
    VSYM_CHECK_STATUS(vsym_coll_tune_load(&u, path), VSYM_ERR_IO, "malformed");
    unlink(path);
    VSYM_CHECK_STATUS(vsym_coll_tune_load(&u, path), VSYM_ERR_IO, "cannot read");
}

static void test_names(void)
{
    vsym_dtype_t d;
    vsym_red_op_t o;
    vsym_coll_algo_t a;
    vsym_fused_op_t fo;
    vsym_fused_mode_t fm;
    for (int i = 0; i < VSYM_DTYPE_COUNT; i++) {
        VSYM_CHECK_OK(vsym_dtype_from_name(vsym_dtype_name((vsym_dtype_t)i), &d));
        VSYM_CHECK(d == (vsym_dtype_t)i, "dtype names");
    }
    for (int i = 0; i < VSYM_RED_COUNT; i++) {
        VSYM_CHECK_OK(vsym_red_op_from_name(vsym_red_op_name((vsym_red_op_t)i), &o));
        VSYM_CHECK(o == (vsym_red_op_t)i, "op names");
    }
    for (int i = 0; i < VSYM_COLL_ALGO_COUNT; i++) {
        VSYM_CHECK_OK(vsym_coll_algo_from_name(vsym_coll_algo_name((vsym_coll_algo_t)i), &a));
        VSYM_CHECK(a == (vsym_coll_algo_t)i, "algo names");
    }
    for (int i = 0; i < VSYM_FUSED_OP_COUNT; i++) {
        VSYM_CHECK_OK(vsym_fused_op_from_name(vsym_fused_op_name((vsym_fused_op_t)i), &fo));
        VSYM_CHECK(fo == (vsym_fused_op_t)i, "fused op names");
    }
    for (int i = 0; i < VSYM_FUSED_MODE_COUNT; i++) {
        VSYM_CHECK_OK(vsym_fused_mode_from_name(vsym_fused_mode_name((vsym_fused_mode_t)i), &fm));
        VSYM_CHECK(fm == (vsym_fused_mode_t)i, "fused mode names");
    }
    VSYM_CHECK_STATUS(vsym_red_op_from_name("avg", &o), VSYM_ERR_BAD_OP, "avg");
    VSYM_CHECK_STATUS(vsym_fused_mode_from_name("fast", &fm), VSYM_ERR_BAD_MODE, "fast");
}

/* The all-reduce algorithm AUTO picks, at both sides of every boundary of the rule in coll.c
 * (the measurements behind it are quoted there). */
static void test_allreduce_rule(void)
{
    const vsym_coll_algo_t one = VSYM_COLL_ONESHOT, two = VSYM_COLL_TWOSHOT, ring = VSYM_COLL_RING;
    struct {
        int n;
        size_t bytes;
        int half, multi, direct;
        vsym_coll_algo_t want;
    } cases[] = {
        /* two ranks on one node: one-shot, then the ring (f16/bf16: two-shot in between) */
        {2, 131072, 0, 0, 1, one},
        {2, 131073, 0, 0, 1, ring},
        {2, (size_t)64 << 20, 0, 0, 1, ring},
        {2, 1024, 1, 0, 1, one},
        {2, 1025, 1, 0, 1, two},
        {2, 8192, 1, 0, 1, two},
        {2, 8193, 1, 0, 1, ring},
        /* more ranks: one-shot while n x n x bytes <= 64 KiB, two-shot, the ring from 1 MiB up
         * to 8 ranks; f16/bf16 never the ring */
        {4, 4096, 0, 0, 1, one},
        {4, 4097, 0, 0, 1, two},
        {3, 7281, 0, 0, 1, one},
        {3, 7282, 0, 0, 1, two},
        {8, 1024, 0, 0, 1, one},
        {8, 1025, 0, 0, 1, two},
        {16, 256, 0, 0, 1, one},
        {16, 257, 0, 0, 1, two},
        {4, (1u << 20) - 1, 0, 0, 1, two},
        {4, 1u << 20, 0, 0, 1, ring},
        {8, 1u << 20, 0, 0, 1, ring},
        {16, 1u << 20, 0, 0, 1, two},
        {4, 1024, 1, 0, 1, one},
        {4, 1025, 1, 0, 1, two},
        {4, (size_t)64 << 20, 1, 0, 1, two},
        /* peers without load/store (verbs on one node), and several nodes; two ranks over
         * verbs: the one-shot push exchange at every size */
        {2, 1, 0, 0, 0, one},
        {2, (size_t)64 << 20, 0, 0, 0, one},
        {2, (size_t)64 << 20, 1, 1, 0, one},
        {4, 8192, 0, 0, 0, one},
        {4, 8193, 0, 0, 0, ring},
        {4, 4096, 0, 1, 0, one},
        {4, 4097, 0, 1, 0, VSYM_COLL_HIER},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        vsym_coll_algo_t got = vsym_coll_allreduce_rule(cases[i].n, cases[i].bytes, cases[i].half,
                                                        cases[i].multi, cases[i].direct);
        VSYM_CHECK(got == cases[i].want,
                   "allreduce rule: %d ranks, %zu bytes, half %d, multi-node %d, direct %d: %s, "
                   "expected %s",
                   cases[i].n, cases[i].bytes, cases[i].half, cases[i].multi, cases[i].direct,
                   vsym_coll_algo_name(got), vsym_coll_algo_name(cases[i].want));
    }
}

/* vsym_coll_reduce_push stores, in every destination, exactly what vsym_coll_reduce writes: every
 * dtype and op, 1-5 sources, 1-5 destinations, a count that ends inside a 4 KiB block; the bytes
 * around each destination untouched. */
static void test_reduce_push(void)
{
    enum { N = 3001, G = 16, MAXK = 5 };
    static unsigned char src[MAXK][N * 8], want[N * 8], dst[MAXK][N * 8 + 2 * G];
    srand(11);
    for (int k = 0; k < MAXK; k++)
        for (size_t i = 0; i < sizeof(src[k]); i++)
            src[k][i] = (unsigned char)rand();
    int cases = 0;
    for (int dt = 0; dt < VSYM_DTYPE_COUNT; dt++) {
        size_t es = vsym_dtype_size((vsym_dtype_t)dt);
        /* Floating-point inputs from small integers (random bits would be NaNs and
         * infinities, whose comparisons the two kernels need not agree on bit for bit). */
        for (int k = 0; k < MAXK; k++)
            for (size_t i = 0; i < N; i++)
                if (dt != VSYM_DTYPE_I32 && dt != VSYM_DTYPE_I64 && dt != VSYM_DTYPE_U64)
                    vsym_coll_store_double((vsym_dtype_t)dt, src[k], i,
                                           (double)(src[k][N * 8 - 1 - i] % 97) / 8 - 6);
        for (int op = 0; op < VSYM_RED_COUNT; op++) {
            int is_int = dt == VSYM_DTYPE_I32 || dt == VSYM_DTYPE_I64 || dt == VSYM_DTYPE_U64;
            if (op == VSYM_RED_PROD && !is_int) continue;
            for (int ns = 1; ns <= MAXK; ns++)
                for (int nd = 1; nd <= MAXK; nd++) {
                    const void *srcs[MAXK];
                    void *dsts[MAXK];
                    for (int k = 0; k < MAXK; k++) {
                        srcs[k] = src[k];
                        dsts[k] = dst[k] + G;
                        memset(dst[k], 0x5A, sizeof(dst[k]));
                    }
                    vsym_coll_reduce((vsym_dtype_t)dt, (vsym_red_op_t)op, want, srcs, ns, N);
                    vsym_coll_reduce_push((vsym_dtype_t)dt, (vsym_red_op_t)op, dsts, nd, srcs, ns,
                                          N);
                    for (int k = 0; k < nd; k++) {
                        VSYM_CHECK(memcmp(dsts[k], want, N * es) == 0,
                                   "reduce_push %s %s, %d sources: destination %d of %d differs",
                                   vsym_dtype_name((vsym_dtype_t)dt),
                                   vsym_red_op_name((vsym_red_op_t)op), ns, k, nd);
                        for (int g = 0; g < G; g++)
                            VSYM_CHECK(dst[k][g] == 0x5A && dst[k][G + N * es + (size_t)g] == 0x5A,
                                       "reduce_push %s: byte %d outside destination %d changed",
                                       vsym_dtype_name((vsym_dtype_t)dt), g, k);
                    }
                    for (int k = nd; k < MAXK; k++)
                        VSYM_CHECK(dst[k][G] == 0x5A, "reduce_push: destination %d of %d written",
                                   k, nd);
                    cases++;
                }
        }
    }
    VSYM_CHECK(cases == (4 * 3 + 3 * 4) * MAXK * MAXK, "reduce_push cases %d", cases);
    /* In place, as the all-reduce between symmetric buffers calls it: n sources, the same n
     * buffers as destinations in the order of rank me, me+1, ..., for every me. */
    int inplace_cases = 0;
    for (int dt = 0; dt < VSYM_DTYPE_COUNT; dt++) {
        size_t es = vsym_dtype_size((vsym_dtype_t)dt);
        for (int op = 0; op < VSYM_RED_COUNT; op++) {
            int is_int = dt == VSYM_DTYPE_I32 || dt == VSYM_DTYPE_I64 || dt == VSYM_DTYPE_U64;
            if (op == VSYM_RED_PROD && !is_int) continue;
            for (int n = 1; n <= MAXK; n++)
                for (int me = 0; me < n; me++) {
                    const void *srcs[MAXK];
                    void *dsts[MAXK];
                    for (int k = 0; k < n; k++) {
                        memset(dst[k], 0x5A, sizeof(dst[k]));
                        memcpy(dst[k] + G, src[k], N * es);
                        srcs[k] = src[k];
                    }
                    vsym_coll_reduce((vsym_dtype_t)dt, (vsym_red_op_t)op, want, srcs, n, N);
                    for (int k = 0; k < n; k++) {
                        srcs[k] = dst[k] + G;
                        dsts[k] = dst[(me + k) % n] + G;
                    }
                    vsym_coll_reduce_push((vsym_dtype_t)dt, (vsym_red_op_t)op, dsts, n, srcs, n, N);
                    for (int k = 0; k < n; k++) {
                        VSYM_CHECK(memcmp(dst[k] + G, want, N * es) == 0,
                                   "reduce_push in place %s %s, %d ranks as %d: buffer %d differs",
                                   vsym_dtype_name((vsym_dtype_t)dt),
                                   vsym_red_op_name((vsym_red_op_t)op), n, me, k);
                        for (int g = 0; g < G; g++)
                            VSYM_CHECK(dst[k][g] == 0x5A && dst[k][G + N * es + (size_t)g] == 0x5A,
                                       "reduce_push in place: byte %d outside buffer %d changed", g,
                                       k);
                    }
                    inplace_cases++;
                }
        }
    }
    VSYM_CHECK(inplace_cases == (4 * 3 + 3 * 4) * 15, "reduce_push in-place cases %d",
               inplace_cases);
    /* In place with one destination, as the reduce-scatter between symmetric buffers calls it
     * beyond rank 1: n sources, the destination source me (the others untouched). */
    int one_cases = 0;
    for (int dt = 0; dt < VSYM_DTYPE_COUNT; dt++) {
        size_t es = vsym_dtype_size((vsym_dtype_t)dt);
        for (int n = 1; n <= MAXK; n++)
            for (int me = 0; me < n; me++) {
                const void *srcs[MAXK];
                void *dsts[1];
                for (int k = 0; k < n; k++) {
                    memset(dst[k], 0x5A, sizeof(dst[k]));
                    memcpy(dst[k] + G, src[k], N * es);
                    srcs[k] = src[k];
                }
                vsym_coll_reduce((vsym_dtype_t)dt, VSYM_RED_MAX, want, srcs, n, N);
                for (int k = 0; k < n; k++)
                    srcs[k] = dst[k] + G;
                dsts[0] = dst[me] + G;
                vsym_coll_reduce_push((vsym_dtype_t)dt, VSYM_RED_MAX, dsts, 1, srcs, n, N);
                for (int k = 0; k < n; k++) {
                    VSYM_CHECK(memcmp(dst[k] + G, k == me ? want : src[k], N * es) == 0,
                               "reduce_push in place into one, %s, %d sources as %d: buffer %d %s",
                               vsym_dtype_name((vsym_dtype_t)dt), n, me, k,
                               k == me ? "differs" : "changed");
                    for (int g = 0; g < G; g++)
                        VSYM_CHECK(dst[k][g] == 0x5A && dst[k][G + N * es + (size_t)g] == 0x5A,
                                   "reduce_push in place into one: byte %d outside buffer %d "
                                   "changed",
                                   g, k);
                }
                one_cases++;
            }
    }
    VSYM_CHECK(one_cases == VSYM_DTYPE_COUNT * 15, "reduce_push in-place one cases %d", one_cases);
}

/* The kernels run from the last element down where a destination lies just past a source modulo
 * 4 KiB (vsym_coll_reduce_backward): the rule, and every element right in both directions
 * against sums computed here, the bytes around each destination untouched. */
static void test_reduce_alias(void)
{
    enum { N = 3001, R = 8 * 4096, G = 16 };
    static _Alignas(4096) unsigned char mem[4][R + 4096];
    char *b0 = (char *)mem[0], *b2 = (char *)mem[2];
    const void *ld = b0;
    void *ahead = b2 + 64, *behind = b2 - 64, *same = b2, *far = b2 + 2048;
    VSYM_CHECK(vsym_coll_reduce_backward(&ahead, 1, &ld, 1) == 1, "64 bytes ahead: not backward");
    VSYM_CHECK(vsym_coll_reduce_backward(&behind, 1, &ld, 1) == 0, "64 bytes behind: backward");
    VSYM_CHECK(vsym_coll_reduce_backward(&same, 1, &ld, 1) == 0, "same offset: backward");
    VSYM_CHECK(vsym_coll_reduce_backward(&far, 1, &ld, 1) == 0, "2 KiB apart: backward");
    void *both[2] = {ahead, b2 + 4096 - 32}; /* 64 ahead of one, 32 behind it */
    VSYM_CHECK(vsym_coll_reduce_backward(both, 2, &ld, 1) == 0, "nearer behind: backward");
    /* A temporary placed by vsym_coll_unaliased: inside its buffer, half a page from src. */
    for (size_t so = 0; so < 4096; so += 40) {
        const char *src = b0 + so;
        char *tmp = vsym_coll_unaliased(b2, src);
        size_t d = ((uintptr_t)tmp - (uintptr_t)src) & 4095;
        VSYM_CHECK(tmp >= b2 && tmp <= b2 + 4032 && (tmp - b2) % 64 == 0,
                   "unaliased: offset %td for src offset %zu", tmp - b2, so);
        VSYM_CHECK(d >= 1985 && d <= 2048, "unaliased: %zu bytes from src modulo 4 KiB", d);
    }
    /* Both directions run wherever the test does, whatever the CPU's vendor. */
    int turning = vsym_coll_reduce_turning(-1);
    vsym_coll_reduce_turning(1);
    const vsym_dtype_t dts[] = {VSYM_DTYPE_I32, VSYM_DTYPE_I64, VSYM_DTYPE_U64, VSYM_DTYPE_F32,
                                VSYM_DTYPE_F64};
    const size_t shifts[] = {0, 64, 192, 4096 - 64};
    int checked = 0;
    for (size_t t = 0; t < sizeof(dts) / sizeof(dts[0]); t++)
        for (size_t h = 0; h < sizeof(shifts) / sizeof(shifts[0]); h++) {
            vsym_dtype_t dt = dts[t];
            size_t es = vsym_dtype_size(dt), sh = shifts[h] + G;
            char *a = (char *)mem[0] + G, *b = (char *)mem[1] + G;
            char *d0 = (char *)mem[2] + sh, *d1 = (char *)mem[3] + sh;
            for (size_t i = 0; i < N; i++) {
                vsym_coll_store_double(dt, a, i, (double)(i % 1000));
                vsym_coll_store_double(dt, b, i, (double)(3 * (i % 777)));
            }
            const void *srcs[2] = {a, b};
            void *dsts[2] = {d0, d1};
            unsigned char want[8];
            for (int pass = 0; pass < 2; pass++) {
                memset(mem[2], 0x5A, sizeof(mem[2]));
                memset(mem[3], 0x5A, sizeof(mem[3]));
                if (pass == 0)
                    vsym_coll_reduce(dt, VSYM_RED_SUM, d0, srcs, 2, N);
                else
                    vsym_coll_reduce_push(dt, VSYM_RED_SUM, dsts, 2, srcs, 2, N);
                for (int k = 0; k <= pass; k++) {
                    const char *d = k ? d1 : d0;
                    size_t bad = N;
                    for (size_t i = 0; i < N && bad == N; i++) {
                        vsym_coll_store_double(dt, want, 0, (double)(i % 1000 + 3 * (i % 777)));
                        if (memcmp(d + i * es, want, es) != 0) bad = i;
                    }
                    VSYM_CHECK(bad == N, "%s %s, destination %zu bytes past: element %zu wrong",
                               pass ? "reduce_push" : "reduce", vsym_dtype_name(dt), shifts[h],
                               bad);
                    for (int g = 1; g <= G; g++)
                        VSYM_CHECK(d[-g] == 0x5A && d[N * es + (size_t)g - 1] == 0x5A,
                                   "%s %s: a byte %d outside the destination changed",
                                   pass ? "reduce_push" : "reduce", vsym_dtype_name(dt), g);
                    checked++;
                }
            }
        }
    VSYM_CHECK(checked == 5 * 4 * 3, "reduce alias cases %d", checked);
    vsym_coll_reduce_turning(turning);
}

/* f16 and bf16 reductions (vectorized kernels, a block of 512 elements, tails of every
 * length) against the definition computed here one element at a time: every source converted to
 * f32, combined left to right, rounded once. Random bits, so NaNs, infinities, subnormals and
 * halfway cases all occur; a NaN result must be a NaN (its payload is the CPU's choice). */
/* vsym_coll_reduce_push_stream (every dtype with AVX-512, non-temporal stores) against
 * vsym_coll_reduce: every op, 1-5 sources (f16: 2-5; from one it refuses), 1-3 destinations on
 * one offset modulo 64 bytes, counts around its vector widths, every element of every destination
 * and the bytes just outside; in place (destination 0 = source 0); destinations on different
 * offsets and other dtypes refused before anything is written. */
static void test_push_stream(void)
{
    enum { N = 4224, K = 5, D = 3, G = 64 }; /* rows of dbuf: whole multiples of 64 bytes */
    static float srcf[K][N];
    static double srcd[K][N], want[N];
    static uint16_t srch[K][N], srcg[K][N];
    static uint32_t srci[K][N];
    static uint64_t srcl[K][N];
    static _Alignas(64) unsigned char dbuf[D][(N + 64) * 8 + 2 * G];
    if (!vsym_coll_reduce_wide(-1)) {
        printf("coll_pure: no AVX-512 here: the streaming push is not used, its test not run\n");
        return;
    }
    srand(31);
    for (int k = 0; k < K; k++)
        for (size_t i = 0; i < N; i++) {
            srcf[k][i] = i % 97 == 5 ? (k & 1 ? -0.0f : 0.0f) : (float)(rand() % 2001 - 1000) / 8;
            srcd[k][i] = (double)srcf[k][i] / 3;
            srch[k][i] = vsym_coll_f32_to_bf16(srcf[k][i] * 1.001f);
            srcg[k][i] = vsym_coll_f32_to_f16(srcf[k][i] * 1.001f);
            srci[k][i] = (uint32_t)rand() * 2654435761u;
            srcl[k][i] = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 2) ^ (uint64_t)k;
        }
    const size_t counts[] = {64, 65, 79, 80, 127, 128, 129, 1000, 4107};
    const vsym_dtype_t dts[] = {VSYM_DTYPE_F32, VSYM_DTYPE_BF16, VSYM_DTYPE_F16, VSYM_DTYPE_F64,
                                VSYM_DTYPE_I32, VSYM_DTYPE_I64,  VSYM_DTYPE_U64};
    int cases = 0;
    for (int dt = 0; dt < 7; dt++) {
        const vsym_dtype_t dtype = dts[dt];
        const size_t es = vsym_dtype_size(dtype), mis[] = {0, es, 64 - es};
        for (int op = VSYM_RED_SUM; op <= (dt < 4 ? VSYM_RED_MAX : VSYM_RED_PROD); op++)
            for (int ns = 1; ns <= K; ns++)
                for (int nd = 1; nd <= D; nd++)
                    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
                        for (size_t m = 0; m < 3; m++) {
                            size_t n = counts[c];
                            const void *srcs[K];
                            void *dsts[D];
                            for (int k = 0; k < ns; k++)
                                srcs[k] = dt == 0   ? (const void *)srcf[k]
                                          : dt == 1 ? (const void *)srch[k]
                                          : dt == 2 ? (const void *)srcg[k]
                                          : dt == 3 ? (const void *)srcd[k]
                                          : dt == 4 ? (const void *)srci[k]
                                                    : (const void *)srcl[k];
                            vsym_coll_reduce(dtype, (vsym_red_op_t)op, want, srcs, ns, n);
                            for (int k = 0; k < nd; k++) {
                                memset(dbuf[k], 0xA5, sizeof(dbuf[k]));
                                dsts[k] = dbuf[k] + G + mis[m];
                            }
                            const int refuse = (dtype == VSYM_DTYPE_F16 && ns == 1) ||
                                               (dt >= 4 && !__builtin_cpu_supports("avx512dq"));
                            VSYM_CHECK(vsym_coll_reduce_push_stream(dtype, (vsym_red_op_t)op, dsts,
                                                                    nd, srcs, ns, n) == !refuse,
                                       "push_stream %s, %d sources: %zu elements at offset %zu %s",
                                       vsym_dtype_name(dtype), ns, n, mis[m],
                                       refuse ? "taken" : "refused");
                            for (int k = 0; k < nd; k++) {
                                VSYM_CHECK(refuse || memcmp(dsts[k], want, n * es) == 0,
                                           "push_stream %s %s, %d sources, %d destinations, %zu "
                                           "elements at offset %zu: destination %d differs",
                                           vsym_dtype_name(dtype),
                                           vsym_red_op_name((vsym_red_op_t)op), ns, nd, n, mis[m],
                                           k);
                                const unsigned char *b = dbuf[k];
                                size_t start = G + mis[m], end = refuse ? start : start + n * es;
                                for (size_t i = 0; i < sizeof(dbuf[k]); i++)
                                    if (i < start || i >= end)
                                        VSYM_CHECK(b[i] == 0xA5,
                                                   "push_stream: byte %zd from destination %d's "
                                                   "start written (%s, %zu elements)",
                                                   (ssize_t)i - (ssize_t)start, k,
                                                   vsym_dtype_name(dtype), n);
                            }
                            cases++;
                        }
    }
    const float(*src)[N] = srcf;
    /* In place: destination 0 is source 0. */
    static _Alignas(64) float io[N];
    memcpy(io, src[0], sizeof(io));
    const void *srcs[2] = {io, src[1]};
    void *dsts[2] = {io, dbuf[0] + G};
    vsym_coll_reduce(VSYM_DTYPE_F32, VSYM_RED_SUM, want, (const void *const[]){src[0], src[1]}, 2,
                     N);
    VSYM_CHECK(vsym_coll_reduce_push_stream(VSYM_DTYPE_F32, VSYM_RED_SUM, dsts, 2, srcs, 2, N) == 1,
               "push_stream in place refused");
    VSYM_CHECK(memcmp(io, want, sizeof(io)) == 0 && memcmp(dsts[1], want, sizeof(io)) == 0,
               "push_stream in place: result differs");
    /* Refused, nothing written: destinations on different offsets modulo 64, another dtype. */
    memset(dbuf[0], 0xA5, sizeof(dbuf[0]));
    memset(dbuf[1], 0xA5, sizeof(dbuf[1]));
    void *apart[2] = {dbuf[0] + G, dbuf[1] + G + 8};
    const void *two[2] = {src[0], src[1]};
    VSYM_CHECK(vsym_coll_reduce_push_stream(VSYM_DTYPE_F32, VSYM_RED_SUM, apart, 2, two, 2, 1000) ==
                   0,
               "push_stream took destinations 8 bytes apart modulo 64");
    VSYM_CHECK(
        vsym_coll_reduce_push_stream(VSYM_DTYPE_COUNT, VSYM_RED_SUM, apart, 1, two, 2, 1000) == 0,
        "push_stream took an unknown dtype");
    VSYM_CHECK(vsym_coll_reduce_push_stream(VSYM_DTYPE_BF16, VSYM_RED_SUM,
                                            (void *[]){dbuf[0] + G + 1}, 1, two, 2, 1000) == 0,
               "push_stream took bf16 destinations half an element off");
    for (size_t i = 0; i < sizeof(dbuf[0]); i++)
        VSYM_CHECK(dbuf[0][i] == 0xA5 && dbuf[1][i] == 0xA5, "a refused push_stream wrote");
    VSYM_CHECK(cases == (4 * 3 + 3 * 4) * K * D * 9 * 3, "push_stream cases %d", cases);
}

static void test_half_reduce(void)
{
    enum { N = 1300, K = 5 };
    static uint16_t src[K][N], out[N + 8];
    srand(23);
    int cases = 0;
    for (int dt = 0; dt < 2; dt++) {
        vsym_dtype_t dtype = dt ? VSYM_DTYPE_BF16 : VSYM_DTYPE_F16;
        for (int k = 0; k < K; k++)
            for (size_t i = 0; i < N; i++) {
                uint16_t h = (uint16_t)rand();
                /* Mostly values of one scale, so that sums round rather than saturate. */
                if (i % 4 != 0) h = (uint16_t)((h & 0x83ff) | (dt ? 0x3f00 : 0x3c00));
                if (i % 50 == 7) h = k & 1 ? 0x8000 : 0; /* -0 and +0: min and max keep the first */
                src[k][i] = h;
            }
        for (int op = VSYM_RED_SUM; op <= VSYM_RED_MAX; op++)
            for (int ns = 2; ns <= K; ns += ns == 2 ? 1 : 2)
                for (size_t n = 1; n <= N - 1; n = n < 40 ? n + 1 : n * 3 + 1) {
                    /* Every other call with the destination and every other source one element
                     * off: the kernels reading two elements per word must not assume them
                     * 4-byte aligned. */
                    const size_t sh = (n + (size_t)ns) & 1;
                    const uint16_t *srcs[K];
                    uint16_t *o = out + sh;
                    for (int k = 0; k < ns; k++)
                        srcs[k] = src[k] + ((sh + (size_t)k) & 1);
                    o[n] = 0xA5A5;
                    vsym_coll_reduce(dtype, (vsym_red_op_t)op, o, (const void *const *)srcs, ns, n);
                    size_t bad = n;
                    for (size_t i = 0; i < n && bad == n; i++) {
                        float acc = dt ? vsym_coll_bf16_to_f32(srcs[0][i])
                                       : vsym_coll_f16_to_f32(srcs[0][i]);
                        for (int k = 1; k < ns; k++) {
                            float b = dt ? vsym_coll_bf16_to_f32(srcs[k][i])
                                         : vsym_coll_f16_to_f32(srcs[k][i]);
                            acc = op == VSYM_RED_SUM   ? acc + b
                                  : op == VSYM_RED_MIN ? (b < acc ? b : acc)
                                                       : (b > acc ? b : acc);
                        }
                        uint16_t want = dt ? vsym_coll_f32_to_bf16(acc) : vsym_coll_f32_to_f16(acc);
                        float got = dt ? vsym_coll_bf16_to_f32(o[i]) : vsym_coll_f16_to_f32(o[i]);
                        if (isnan(acc) ? !isnan(got) : o[i] != want) bad = i;
                    }
                    VSYM_CHECK(bad == n, "%s %s, %d sources, %zu elements: element %zu is %04x",
                               vsym_dtype_name(dtype), vsym_red_op_name((vsym_red_op_t)op), ns, n,
                               bad, bad < n ? o[bad] : 0);
                    VSYM_CHECK(o[n] == 0xA5A5, "%s: the element after %zu written",
                               vsym_dtype_name(dtype), n);
                    cases++;
                }
    }
    VSYM_CHECK(cases > 300, "half reduce cases %d", cases);
}

/* What a rank publishes into its scratch (vsym_util_copy_publish, vsym_coll_reduce_publish)
 * under VSYM_PUBLISH_STREAM off, on and auto: every byte copied at any length and alignment,
 * nothing stored around it, on streams and off does not (below the streaming threshold), auto
 * with the lines near (its probe forced) streams nothing but copies of 16-128 KiB where every
 * rank has a core on AMD CPUs of family 25 (vsym_util_amd_streams_near; both families forced at
 * the end); the reduction's bits those of vsym_coll_reduce in every mode. */
static void test_publish(void)
{
    static const char *const modes[] = {"off", "on", "auto"};
    const size_t lens[] = {0, 1, 100, 4095, 4096, 8191, 8192, 12345, 16383, 16384, 65536 + 17};
    /* auto streams those near (family 25), others only while the lines are far */
    const int near_rule = vsym_util_amd_streams_near() && vsym_util_core_per_rank();
#define NEAR_LEN(len) ((len) >= 16384 && (len) <= 131072)
    enum { PAD = 64 };
    unsigned char *src = malloc(65536 + 17 + 8), *dst = malloc(65536 + 17 + 2 * PAD + 16);
    VSYM_CHECK(src != NULL && dst != NULL, "malloc");
    for (size_t i = 0; i < 65536 + 17 + 8; i++)
        src[i] = (unsigned char)(i * 7 + i / 251 + 1);
    for (int m = 0; m < 3; m++) {
        VSYM_CHECK(setenv("VSYM_PUBLISH_STREAM", modes[m], 1) == 0, "setenv");
        VSYM_CHECK_OK(vsym_settings_check());
        vsym_util_publish_probe_force(0); /* auto: every probe finds the lines near */
        for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
            for (int so = 0; so < 8; so += 5)
                for (int dofs = 0; dofs < 16; dofs += 3) {
                    size_t len = lens[li];
                    unsigned char *d = dst + PAD + dofs;
                    memset(dst, 0xA5, 65536 + 17 + 2 * PAD + 16);
                    int streamed = vsym_util_copy_publish(d, src + so, len);
                    VSYM_CHECK(memcmp(d, src + so, len) == 0,
                               "publish %s: %zu bytes (src +%d, dst +%d) not copied", modes[m], len,
                               so, dofs);
                    for (size_t g = 0; g < PAD; g++)
                        VSYM_CHECK(d[-1 - (long)g] == 0xA5 && d[len + g] == 0xA5,
                                   "publish %s: %zu bytes: a byte around dst changed", modes[m],
                                   len);
                    VSYM_CHECK(m != 0 || streamed == 0, "publish off: %zu bytes streamed", len);
                    VSYM_CHECK(m != 1 || streamed == 1, "publish on: %zu bytes not streamed", len);
                    VSYM_CHECK(m != 2 || streamed == (near_rule && NEAR_LEN(len)),
                               "publish auto, the lines near: %zu bytes %s (%s)", len,
                               streamed ? "streamed" : "not streamed",
                               near_rule ? "AMD family 25, a core a rank" : "no near rule");
                }
        VSYM_CHECK(vsym_util_publish_streams(100) == (m == 1),
                   "publish %s: a 100-byte reduction %s", modes[m],
                   m == 1 ? "not streamed" : "streamed");
        vsym_util_publish_probe_force(-1);
        for (size_t len = 16384; len <= 131072; len *= 8) {
            const int want = m == 1 || (m == 2 && near_rule);
            VSYM_CHECK(vsym_util_publish_streams(len) == want,
                       "publish %s: a %zu-byte reduction %s", modes[m], len,
                       want ? "not streamed" : "streamed");
        }
        /* The reduction into a scratch: the same bits as the plain kernel, 3 sources. */
        const size_t count = 3001;
        float *a = malloc(count * 4), *b = malloc(count * 4), *c = malloc(count * 4);
        float *want = malloc(count * 4), *got = malloc(count * 4 + 64);
        VSYM_CHECK(a && b && c && want && got, "malloc");
        for (size_t i = 0; i < count; i++) {
            a[i] = (float)(i % 17) * 0.25f;
            b[i] = (float)(i % 5) - 1.5f;
            c[i] = 1.0f / (float)(1 + i % 9);
        }
        const void *srcs[3] = {a, b, c};
        vsym_coll_reduce(VSYM_DTYPE_F32, VSYM_RED_SUM, want, srcs, 3, count);
        memset(got, 0, count * 4 + 64);
        vsym_coll_reduce_publish(VSYM_DTYPE_F32, VSYM_RED_SUM, got, srcs, 3, count);
        VSYM_CHECK(memcmp(got, want, count * 4) == 0,
                   "publish %s: the reduction's bits differ from vsym_coll_reduce's", modes[m]);
        free(a);
        free(b);
        free(c);
        free(want);
        free(got);
    }
#if defined(__x86_64__)
    /* The streaming copy with 16-byte and with 64-byte stores (the second where the CPU has
     * AVX-512F): every byte at lengths around its 128- and 256-byte steps, any alignment, nothing
     * stored around it. */
    VSYM_CHECK(setenv("VSYM_PUBLISH_STREAM", "on", 1) == 0, "setenv");
    VSYM_CHECK_OK(vsym_settings_check());
    const int wide_auto = vsym_util_copy_wide();
    enum { WIDE_BUF = 65536 + 17 + 256 };
    unsigned char *wdst = malloc(WIDE_BUF);
    VSYM_CHECK(wdst != NULL, "malloc");
    for (int wide = 0; wide < 2; wide++) {
        vsym_util_copy_wide_force(wide);
        VSYM_CHECK(vsym_util_copy_wide() == (wide && __builtin_cpu_supports("avx512f")),
                   "64-byte stores forced %d: %d", wide, vsym_util_copy_wide());
        const size_t wlens[] = {63, 64, 127, 128, 255, 256, 319, 383, 511, 4097, 65536 + 17};
        for (size_t li = 0; li < sizeof(wlens) / sizeof(wlens[0]); li++)
            for (int so = 0; so < 8; so += 3)
                for (int dofs = 0; dofs < 64; dofs += 7) {
                    const size_t len = wlens[li];
                    unsigned char *d = wdst + 64 + dofs; /* dofs: offsets modulo 64 */
                    memset(wdst, 0xA5, WIDE_BUF);
                    VSYM_CHECK(vsym_util_copy_publish(d, src + so, len) == 1, "streamed");
                    VSYM_CHECK(memcmp(d, src + so, len) == 0,
                               "stream, %d-byte stores: %zu bytes (src +%d, dst +%d) not copied",
                               wide ? 64 : 16, len, so, dofs);
                    for (size_t g = 0; g < 48; g++)
                        VSYM_CHECK(d[-1 - (long)g] == 0xA5 && d[len + g] == 0xA5,
                                   "stream, %d-byte stores: %zu bytes: a byte around dst changed",
                                   wide ? 64 : 16, len);
                }
    }
    free(wdst);
    vsym_util_copy_wide_force(-1);
    VSYM_CHECK(vsym_util_copy_wide() == wide_auto, "64-byte stores: the CPU's answer again");
    VSYM_CHECK(!vsym_util_cpu_amd() || !wide_auto, "64-byte stores on an AMD CPU");
#endif
    /* Ranks sharing cores: auto times its probes on AMD CPUs too and streams from 8 KiB while they
     * find the lines far (forced here), but 16-128 KiB near only with a core per rank on family
     * 25; never on other CPUs. */
    VSYM_CHECK(setenv("VSYM_PUBLISH_STREAM", "auto", 1) == 0, "setenv");
    VSYM_CHECK_OK(vsym_settings_check());
    const int amd = vsym_util_cpu_amd();
    for (int shared = 0; shared < 2; shared++) {
        vsym_util_wait_policy_init(shared ? (int)sysconf(_SC_NPROCESSORS_ONLN) + 1 : 1);
        VSYM_CHECK(vsym_util_core_per_rank() == !shared, "%d ranks a core", shared ? 2 : 1);
        for (int far = 0; far < 2; far++) {
            vsym_util_publish_probe_force(far);
            for (int k = 0; k < 40; k++) { /* the probe runs once in 16 copies */
                const size_t len = k % 2 ? 65536 + 17 : 12345;
                const int want =
                    amd && (far || (!shared && vsym_util_amd_streams_near() && NEAR_LEN(len)));
                memset(dst, 0xA5, 65536 + 17 + 2 * PAD + 16);
                int streamed = vsym_util_copy_publish(dst + PAD, src, len);
                VSYM_CHECK(memcmp(dst + PAD, src, len) == 0, "publish auto: %zu bytes", len);
                VSYM_CHECK(streamed == want && vsym_util_publish_streams(len) == want,
                           "publish auto, %s, lines %s: %zu bytes %s",
                           shared ? "cores shared" : "a core a rank", far ? "far" : "near", len,
                           streamed ? "streamed" : "not streamed");
            }
        }
    }
    vsym_util_publish_probe_force(0); /* the verdict near, then timed again */
    vsym_util_publish_probe_force(-1);
    /* The node's record of a far probe (another rank's): fresh, it makes a probe that finds the
     * lines near stream all the same (a probe runs once in 16 copies). */
    {
        uint64_t word = vsym_util_time_ns();
        vsym_util_publish_share(&word);
        int streamed = 0;
        for (int k = 0; k < 17; k++)
            streamed = vsym_util_copy_publish(dst + PAD, src, 12345);
        VSYM_CHECK(streamed == amd && vsym_util_publish_streams(12345) == amd,
                   "publish auto, the node's record fresh: 12345 bytes %s",
                   streamed ? "streamed" : "not streamed");
        VSYM_CHECK(memcmp(dst + PAD, src, 12345) == 0, "publish auto, shared record: bytes");
        vsym_util_publish_share(NULL);
    }
    /* The team's line round trip (word[1], timed by the collectives): over 250 ns a probe that
     * finds the lines near streams all the same, at 250 ns or under it does not, with a core
     * per rank and with ranks sharing cores alike. */
    {
        uint64_t words[2] = {0, 0};
        const uint64_t rtts[3] = {400, 250, 100};
        const size_t rtt_lens[3] = {8192, 12345, 32768};
        vsym_util_publish_probe_force(0);
        vsym_util_publish_share(words);
        for (int shared = 0; shared < 2; shared++) {
            vsym_util_wait_policy_init(shared ? (int)sysconf(_SC_NPROCESSORS_ONLN) + 1 : 1);
            for (int k = 0; k < 9; k++) {
                const uint64_t rtt = rtts[k % 3];
                const size_t len = rtt_lens[k / 3];
                words[1] = rtt;
                int streamed = 0;
                for (int i = 0; i < 17; i++)
                    streamed = vsym_util_copy_publish(dst + PAD, src, len);
                /* (a core a rank, family 25: 16-128 KiB stream whatever the record says) */
                const int want =
                    amd &&
                    (rtt > 250 || (!shared && vsym_util_amd_streams_near() && NEAR_LEN(len)));
                VSYM_CHECK(streamed == want && vsym_util_publish_streams(len) == want,
                           "publish auto, %s, the team's line round trip %llu ns: %zu bytes %s",
                           shared ? "cores shared" : "a core a rank", (unsigned long long)rtt, len,
                           streamed ? "streamed" : "not streamed");
                VSYM_CHECK(memcmp(dst + PAD, src, len) == 0, "publish auto, round trip: bytes");
            }
        }
        /* The all-reduce of symmetric buffers out of place streams its results from 1 MiB a
         * rank with the cores far too (the ranks' inputs together below the threshold) where
         * every rank has a core, never in place. */
        const size_t mib = (size_t)1 << 20;
        for (int k = 0; k < 6; k++) {
            vsym_util_wait_policy_init(k < 3 ? 1 : (int)sysconf(_SC_NPROCESSORS_ONLN) + 1);
            words[1] = rtts[k % 3];
            const int far = amd && rtts[k % 3] > 250 && vsym_util_core_per_rank();
            for (size_t b = mib / 2; b <= 2 * mib; b *= 2) {
                const int want = vsym_util_copy_streams(2 * b) || (far && b >= mib);
                VSYM_CHECK(vsym_coll_zc_streams(2, b, 0) == want && !vsym_coll_zc_streams(2, b, 1),
                           "symmetric all-reduce of %zu bytes, line round trip %llu ns: streams "
                           "%d (in place %d), expected %d (0)",
                           b, (unsigned long long)rtts[k % 3], vsym_coll_zc_streams(2, b, 0),
                           vsym_coll_zc_streams(2, b, 1), want);
            }
        }
        vsym_util_publish_share(NULL);
        VSYM_CHECK(vsym_coll_zc_streams(2, mib, 0) == vsym_util_copy_streams(2 * mib),
                   "symmetric all-reduce of 1 MiB without the team's record: streams");
        vsym_util_publish_probe_force(-1);
    }
    /* The near rule by family (an AMD CPU forced, a core per rank, the lines near): family 25
     * streams a copy of 64 KiB, family 26 does not; neither streams 12345 bytes. */
    vsym_util_wait_policy_init(1);
    vsym_util_cpu_amd_force(1);
    vsym_util_publish_probe_force(0);
    for (int fam = 25; fam <= 26; fam++) {
        vsym_util_cpu_family_force(fam);
        VSYM_CHECK(vsym_util_amd_streams_near() == (fam == 25), "family %d: near rule %d", fam,
                   vsym_util_amd_streams_near());
        const int big = vsym_util_copy_publish(dst + PAD, src, 65536 + 17),
                  small = vsym_util_copy_publish(dst + PAD, src, 12345);
        VSYM_CHECK(big == (fam == 25) && !small && vsym_util_publish_streams(65536) == (fam == 25),
                   "publish auto, AMD family %d, the lines near: 64 KiB %s, 12345 bytes %s", fam,
                   big ? "streamed" : "not streamed", small ? "streamed" : "not streamed");
    }
    vsym_util_cpu_family_force(-1);
    vsym_util_cpu_amd_force(-1);
    vsym_util_publish_probe_force(-1);
    VSYM_CHECK(vsym_util_cpu_family() > 0 || !vsym_util_cpu_amd(), "the CPU's family: %d",
               vsym_util_cpu_family());
    VSYM_CHECK(unsetenv("VSYM_PUBLISH_STREAM") == 0, "unsetenv");
    VSYM_CHECK_OK(vsym_settings_check());
    free(src);
    free(dst);
#undef NEAR_LEN
}

/* The line round trip against a helper thread (vsym_util_thread_line_rtt, what team rank 0 times
 * where ranks share cores): with two CPUs allowed a time between 1 ns and 5 us (the helper given
 * 100 ms, up to 50 tries: on the 2-core Zen 5 guest of 2026-12-01, where a helper on the other,
 * idle vCPU started up to 17 ms late, all of 50 tries within 1 ms failed in one run of three);
 * with this
 * thread bound to one CPU (as vsym-run binds ranks that outnumber the cores) the same against the
 * machine's next CPU, and none (0) on a machine of one CPU. A limit of 0 (forced) gives none. */
#define THREAD_RTT_TEST_NS 100000000ull
static void test_thread_line_rtt(void)
{
    cpu_set_t allowed, one;
    VSYM_CHECK(sched_getaffinity(0, sizeof(allowed), &allowed) == 0, "sched_getaffinity");
    if (CPU_COUNT(&allowed) < 2) {
        printf("thread line round trip: skipped (one CPU allowed)\n");
    } else {
        uint64_t rtt = 0;
        for (int k = 0; k < 50 && rtt == 0; k++)
            rtt = vsym_util_thread_line_rtt_within(THREAD_RTT_TEST_NS);
        VSYM_CHECK(rtt > 0 && rtt < 5000, "thread line round trip: %llu ns, expected 1-4999",
                   (unsigned long long)rtt);
        printf("thread line round trip: %llu ns\n", (unsigned long long)rtt);
    }
    const int cpu = sched_getcpu();
    VSYM_CHECK(cpu >= 0, "sched_getcpu");
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    VSYM_CHECK(sched_setaffinity(0, sizeof(one), &one) == 0, "sched_setaffinity");
    uint64_t alone = vsym_util_thread_line_rtt_within(THREAD_RTT_TEST_NS);
    const int machine = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
    for (int k = 0; k < 50 && alone == 0 && machine; k++)
        alone = vsym_util_thread_line_rtt_within(THREAD_RTT_TEST_NS);
    VSYM_CHECK(sched_setaffinity(0, sizeof(allowed), &allowed) == 0, "sched_setaffinity back");
    VSYM_CHECK(machine ? alone > 0 && alone < 5000 : alone == 0,
               "thread line round trip bound to CPU %d: %llu ns, expected %s", cpu,
               (unsigned long long)alone, machine ? "1-4999 (the next CPU)" : "none (0)");
    vsym_util_thread_line_rtt_force(0);
    const uint64_t none = vsym_util_thread_line_rtt();
    vsym_util_thread_line_rtt_force(UINT64_MAX);
    VSYM_CHECK(none == 0, "thread line round trip with a limit of 0: %llu ns, expected none (0)",
               (unsigned long long)none);
}

/* VSYM_NT_THRESHOLD auto: half the last-level cache sysfs describes for the CPU (the highest
 * level of those listed), 16 MiB where it describes none (a guest without cache folders); the
 * setting wins over both. A fake tree of cpu0 and cpu1 in a temporary folder, removed after. */
static void test_nt_threshold(void)
{
    char root[] = "/tmp/vsym-sysfs-XXXXXX", path[256];
    VSYM_CHECK(mkdtemp(root) != NULL, "mkdtemp");
    vsym_test_tmp_keep(root); /* (where a failed check leaves it) */
    VSYM_CHECK(unsetenv("VSYM_NT_THRESHOLD") == 0, "unsetenv");
    VSYM_CHECK_OK(vsym_settings_check());
    vsym_util_sysfs_cpu_force(root);
    VSYM_CHECK(vsym_util_nt_threshold() == (size_t)16 << 20,
               "no caches in sysfs: threshold %zu, expected 16 MiB", vsym_util_nt_threshold());
    /* The tree under root, in the order made (removed in the reverse): a folder where text is
     * NULL, else a file holding it. */
    static const char *const sizes[] = {"48K\n", "1024K\n", "98304K\n"};
    struct {
        char rel[48];
        const char *text;
    } tree[2 * (2 + 3 * 3)];
    int nt = 0;
    for (int cpu = 0; cpu < 2; cpu++) {
        snprintf(tree[nt].rel, sizeof(tree[nt].rel), "cpu%d", cpu);
        tree[nt++].text = NULL;
        snprintf(tree[nt].rel, sizeof(tree[nt].rel), "cpu%d/cache", cpu);
        tree[nt++].text = NULL;
        for (int i = 0; i < 3; i++) {
            static const char *const levels[] = {"1\n", "2\n", "3\n"};
            snprintf(tree[nt].rel, sizeof(tree[nt].rel), "cpu%d/cache/index%d", cpu, i);
            tree[nt++].text = NULL;
            snprintf(tree[nt].rel, sizeof(tree[nt].rel), "cpu%d/cache/index%d/level", cpu, i);
            tree[nt++].text = levels[i];
            snprintf(tree[nt].rel, sizeof(tree[nt].rel), "cpu%d/cache/index%d/size", cpu, i);
            tree[nt++].text = sizes[i];
        }
    }
    for (int k = 0; k < nt; k++) {
        const int w = snprintf(path, sizeof(path), "%s/%s", root, tree[k].rel);
        VSYM_CHECK(w > 0 && (size_t)w < sizeof(path), "path of %s", tree[k].rel);
        if (tree[k].text == NULL)
            VSYM_CHECK(mkdir(path, 0700) == 0, "mkdir %s", path);
        else
            vsym_test_write_file(path, tree[k].text);
    }
    vsym_util_sysfs_cpu_force(root);
    VSYM_CHECK(vsym_util_nt_threshold() == (size_t)48 << 20,
               "a 96 MiB L3 in sysfs: threshold %zu, expected 48 MiB", vsym_util_nt_threshold());
    vsym_sysinfo_t si;
    VSYM_CHECK_OK(vsym_sysinfo_get(&si));
#if defined(__x86_64__)
    VSYM_CHECK(si.nt_threshold == (size_t)48 << 20 && si.nt_single_threshold == (size_t)48 << 20,
               "the machine facts' nt_threshold %zu and nt_single_threshold %zu, expected the 48 "
               "MiB in force",
               si.nt_threshold, si.nt_single_threshold);
#endif
    /* A 480 MiB L3 (what a hypervisor showed a 2-vCPU guest: the host's) with its CPUs listed: at
     * most 48 MiB counted for each, and a list that does not parse leaves the cache as it is. */
    static const struct {
        const char *list;
        size_t expect_mib;
    } shared[] = {{"0-1\n", 48}, {"0\n", 24}, {"0-3\n", 96}, {"0,2-3,8\n", 96}, {"x\n", 240}};
    for (size_t k = 0; k < sizeof(shared) / sizeof(shared[0]); k++) {
        for (int cpu = 0; cpu < 2; cpu++) {
            snprintf(path, sizeof(path), "%s/cpu%d/cache/index2/shared_cpu_list", root, cpu);
            vsym_test_write_file(path, shared[k].list);
            snprintf(path, sizeof(path), "%s/cpu%d/cache/index2/size", root, cpu);
            vsym_test_write_file(path, "491520K\n");
        }
        vsym_util_sysfs_cpu_force(root);
        VSYM_CHECK(vsym_util_nt_threshold() == shared[k].expect_mib << 20,
                   "a 480 MiB L3 shared by CPUs %.*s: threshold %zu, expected %zu MiB",
                   (int)strcspn(shared[k].list, "\n"), shared[k].list, vsym_util_nt_threshold(),
                   shared[k].expect_mib);
        /* a single copy (a put) streams from 48 MiB at most */
        const size_t single = (shared[k].expect_mib < 48 ? shared[k].expect_mib : 48) << 20;
        VSYM_CHECK(vsym_util_copy_single_streams(single) &&
                       !vsym_util_copy_single_streams(single - 1),
                   "a 480 MiB L3 shared by CPUs %.*s: a single copy streams from %zu MiB",
                   (int)strcspn(shared[k].list, "\n"), shared[k].list, single >> 20);
    }
    for (int cpu = 0; cpu < 2; cpu++) {
        snprintf(path, sizeof(path), "%s/cpu%d/cache/index2/shared_cpu_list", root, cpu);
        VSYM_CHECK(unlink(path) == 0, "remove %s", path);
    }
    VSYM_CHECK(setenv("VSYM_NT_THRESHOLD", "4K", 1) == 0, "setenv");
    VSYM_CHECK_OK(vsym_settings_check());
    VSYM_CHECK(vsym_util_nt_threshold() == 4096, "VSYM_NT_THRESHOLD 4K: threshold %zu",
               vsym_util_nt_threshold());
    VSYM_CHECK(vsym_util_copy_single_streams(4096) && !vsym_util_copy_single_streams(4095),
               "VSYM_NT_THRESHOLD 4K: a single copy streams from 4 KiB");
    /* the setting above the cap wins too; 0 never streams */
    VSYM_CHECK(setenv("VSYM_NT_THRESHOLD", "128M", 1) == 0, "setenv");
    VSYM_CHECK_OK(vsym_settings_check());
    VSYM_CHECK(
        !vsym_util_copy_single_streams((size_t)64 << 20) &&
            vsym_util_copy_single_streams((size_t)128 << 20),
        "VSYM_NT_THRESHOLD 128M: a single copy of 64 MiB streams or one of 128 MiB does not");
    VSYM_CHECK(setenv("VSYM_NT_THRESHOLD", "0", 1) == 0, "setenv");
    VSYM_CHECK_OK(vsym_settings_check());
    VSYM_CHECK(!vsym_util_copy_single_streams((size_t)1 << 30),
               "VSYM_NT_THRESHOLD 0: a single copy of 1 GiB streams");
    VSYM_CHECK(unsetenv("VSYM_NT_THRESHOLD") == 0, "unsetenv");
    VSYM_CHECK_OK(vsym_settings_check());
    for (int k = nt - 1; k >= 0; k--) {
        const int w = snprintf(path, sizeof(path), "%s/%s", root, tree[k].rel);
        VSYM_CHECK(w > 0 && (size_t)w < sizeof(path), "path of %s", tree[k].rel);
        VSYM_CHECK((tree[k].text == NULL ? rmdir(path) : unlink(path)) == 0, "remove %s", path);
    }
    VSYM_CHECK(rmdir(root) == 0, "rmdir %s", root);
    vsym_util_sysfs_cpu_force(NULL);
}

/* Small counts (up to VSYM_COLL_RED_SMALL bytes) take one pass over every source: the same bits
 * as the pairwise kernels, element by element, for every dtype and op, 2-17 sources, every count
 * from 1 to past the limit (the first elements of a long reduction, which the pairwise kernels
 * compute, are the reference), the bytes after the destination untouched, and in place on any
 * source. */
static void test_reduce_small(void)
{
    enum { NS = 17, BIG = 300, G = 16 };
    static unsigned char src[NS][BIG * 8], big[BIG * 8], got[BIG * 8 + G], tmp[NS][BIG * 8];
    srand(23);
    int cases = 0;
    for (int dt = 0; dt < VSYM_DTYPE_COUNT; dt++) {
        if (dt == VSYM_DTYPE_F16 || dt == VSYM_DTYPE_BF16) continue;
        const size_t es = vsym_dtype_size((vsym_dtype_t)dt);
        const int is_int = dt == VSYM_DTYPE_I32 || dt == VSYM_DTYPE_I64 || dt == VSYM_DTYPE_U64;
        for (int k = 0; k < NS; k++)
            for (size_t i = 0; i < BIG; i++) {
                if (is_int) {
                    for (size_t b = 0; b < es; b++)
                        src[k][i * es + b] = (unsigned char)rand();
                } else {
                    /* fractions whose sums round (not integers: those add exactly) */
                    vsym_coll_store_double((vsym_dtype_t)dt, src[k], i,
                                           (double)(rand() % 2001 - 1000) / 7.0);
                }
            }
        const void *srcs[NS];
        for (int k = 0; k < NS; k++)
            srcs[k] = src[k];
        for (int op = 0; op < VSYM_RED_COUNT; op++) {
            if (op == VSYM_RED_PROD && !is_int) continue;
            for (int ns = 2; ns <= NS; ns++) {
                vsym_coll_reduce((vsym_dtype_t)dt, (vsym_red_op_t)op, big, srcs, ns, BIG);
                for (size_t n = 1; n * es <= VSYM_COLL_RED_SMALL + 2 * es; n++) {
                    memset(got, 0x5A, sizeof(got));
                    vsym_coll_reduce((vsym_dtype_t)dt, (vsym_red_op_t)op, got, srcs, ns, n);
                    VSYM_CHECK(memcmp(got, big, n * es) == 0, "reduce %s %s, %d sources, count %zu",
                               vsym_dtype_name((vsym_dtype_t)dt),
                               vsym_red_op_name((vsym_red_op_t)op), ns, n);
                    VSYM_CHECK(got[n * es] == 0x5A && got[n * es + G - 1] == 0x5A,
                               "reduce %s, count %zu: wrote past the destination",
                               vsym_dtype_name((vsym_dtype_t)dt), n);
                    cases++;
                }
                /* In place on the last source, at the limit. */
                const size_t n = VSYM_COLL_RED_SMALL / es;
                const void *ts[NS];
                for (int k = 0; k < ns; k++) {
                    memcpy(tmp[k], src[k], n * es);
                    ts[k] = tmp[k];
                }
                vsym_coll_reduce((vsym_dtype_t)dt, (vsym_red_op_t)op, tmp[ns - 1], ts, ns, n);
                VSYM_CHECK(memcmp(tmp[ns - 1], big, n * es) == 0,
                           "reduce %s %s, %d sources, in place on the last",
                           vsym_dtype_name((vsym_dtype_t)dt), vsym_red_op_name((vsym_red_op_t)op),
                           ns);
            }
        }
    }
    VSYM_CHECK(cases > 1000, "only %d small reductions checked", cases);
}

int main(void)
{
    test_half();
    test_allreduce_rule();
    test_reduce();
    test_reduce_push();
    test_reduce_small();
    test_reduce_alias();
    test_push_stream();
    test_publish();
    test_nt_threshold();
    test_thread_line_rtt();
    test_half_reduce();
    if (vsym_coll_reduce_wide(-1)) {
        /* Again through the f16 and bf16 kernels without 512-bit vectors (CPUs without
         * AVX-512BW). */
        vsym_coll_reduce_wide(0);
        VSYM_CHECK(vsym_coll_reduce_wide(-1) == 0, "512-bit bf16 kernels still on");
        test_half_reduce();
        vsym_coll_reduce_wide(1);
    }
    test_topology();
    test_tune_table();
    test_tune_pick();
    test_names();
    printf("coll_pure: all checks passed\n");
    return 0;
}
