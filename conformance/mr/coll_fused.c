/* Fused collectives: every valid TP x DP factorisation of the world, every valid op and mode
 * (and AUTO), f32 / f16 / bf16, against a reference computed here; outputs bitwise equal
 * across the ranks that must agree; invalid ops and modes rejected; repetitions with changing
 * data (no entry or exit barrier: the rotating buffers must keep calls apart); autotune, its
 * file, and the loaded table. With VSYM_TEST_SCOPE=transport (the VM groups): f32 and bf16,
 * counts from 1 up, 32 repetitions per op and mode (16 at each of the two sizes: each of the
 * eight rotating slots written again), autotune at 64-256 B.
 *   coll_fused [--slow]   (--slow: thousands of repetitions per op and mode) */
#include <stdint.h>
#include <unistd.h>
#include "harness.h"
#include "coll/coll_internal.h"

static int slow, transport_scope;
static int W, me;
static vsym_team_t *world;
/* Symmetric buffers of the handler under test (vsym_fused_buffer_alloc), or NULL: ordinary
 * ones. The output lies SYM_GUARD bytes into sym_out, guarded on both sides. */
static char *sym_in, *sym_out;
#define SYM_GUARD 64
#define MAX_N 5001

/* Exact small integers: any summation order gives the same bits in every dtype. */
static double value(int rank, size_t i, int seed)
{
    return (double)((rank * 5 + (long)i * 3 + seed * 7) % 11) - 5;
}

/* The reference output of op for this rank (n elements per rank, inputs value(r, idx)). */
static void reference(const vsym_fused_topo_t *t, vsym_fused_op_t op, size_t n, int seed,
                      vsym_dtype_t dt, char *want)
{
    int tp = t->local_tp_size * t->inter_tp_size, dp = t->local_dp_size * t->inter_dp_size;
    int my_tp, my_dp;
    vsym_fused_topo_ranks(t, me, &my_tp, &my_dp);
    switch (op) {
    case VSYM_FUSED_ALLREDUCE:
        for (size_t i = 0; i < n; i++) {
            double s = 0;
            for (int r = 0; r < W; r++)
                s += value(r, i, seed);
            vsym_coll_store_double(dt, want, i, s);
        }
        break;
    case VSYM_FUSED_ALLGATHER:
        for (int d = 0; d < dp; d++)
            for (size_t i = 0; i < n; i++)
                vsym_coll_store_double(dt, want, (size_t)d * n + i,
                                       value(vsym_fused_topo_world_rank(t, 0, d), i, seed));
        break;
    case VSYM_FUSED_REDUCESCATTER:
    case VSYM_FUSED_REDUCESCATTER_ALLREDUCE:
        for (size_t i = 0; i < n; i++) {
            double s = 0;
            for (int r = 0; r < W; r++)
                s += value(r, (size_t)my_dp * n + i, seed);
            vsym_coll_store_double(dt, want, i, s);
        }
        break;
    default: /* ALLREDUCE_ALLGATHER */
        for (int d = 0; d < dp; d++)
            for (size_t i = 0; i < n; i++) {
                double s = 0;
                for (int k = 0; k < tp; k++)
                    s += value(vsym_fused_topo_world_rank(t, k, d), i, seed);
                vsym_coll_store_double(dt, want, (size_t)d * n + i, s);
            }
        break;
    }
}

static void run_case(vsym_fused_t *f, vsym_fused_op_t op, vsym_fused_mode_t mode, size_t n,
                     vsym_dtype_t dt, int seed, const char *what)
{
    vsym_fused_topo_t t;
    vsym_fused_get_topo(f, &t);
    size_t es = vsym_dtype_size(dt), nin, nout;
    vsym_fused_shapes(f, op, n, &nin, &nout);
    char *in = sym_in ? sym_in : malloc(nin * es + 1);
    char *out = sym_out ? sym_out + SYM_GUARD : malloc(nout * es + 64);
    char *want = malloc(nout * es + 1);
    for (size_t i = 0; i < nin; i++)
        vsym_coll_store_double(dt, in, i, value(me, i, seed));
    memset(out, 0x5A, nout * es + 64);
    if (sym_out) memset(sym_out, 0x5A, SYM_GUARD);
    reference(&t, op, n, seed, dt, want);
    VSYM_CHECK_OK(vsym_fused_run(f, op, mode, in, out, n, dt));
    for (size_t i = 0; i < nout * es; i++)
        VSYM_CHECK(out[i] == want[i], "%s: byte %zu of %zu differs", what, i, nout * es);
    for (int i = 0; i < 64; i++)
        VSYM_CHECK((unsigned char)out[nout * es + (size_t)i] == 0x5A &&
                       (!sym_out || (unsigned char)sym_out[i] == 0x5A),
                   "%s: byte %d after (or before) the output changed", what, i);
    free(want);
    if (!sym_out) free(out);
    if (!sym_in) free(in);
}

/* Random data: the ranks that share an output (same dp_rank for the reduce-scatter flavours,
 * all ranks otherwise) hold the same bits. */
static void bitwise_case(vsym_fused_t *f, vsym_fused_op_t op, vsym_fused_mode_t mode,
                         vsym_dtype_t dt, const char *what)
{
    vsym_fused_topo_t t;
    vsym_fused_get_topo(f, &t);
    size_t n = 777, es = vsym_dtype_size(dt), nin, nout;
    vsym_fused_shapes(f, op, n, &nin, &nout);
    char *in = sym_in ? sym_in : malloc(nin * es);
    char *out = sym_out ? sym_out + SYM_GUARD : malloc(nout * es);
    srand(99u + (unsigned)me);
    for (size_t i = 0; i < nin; i++)
        vsym_coll_store_double(dt, in, i, (double)rand() / RAND_MAX - 0.5);
    VSYM_CHECK_OK(vsym_fused_run(f, op, mode, in, out, n, dt));
    uint64_t h[2] = {0, 1469598103934665603ull}, *all = malloc((size_t)W * sizeof(h));
    int tpr, dpr;
    vsym_fused_topo_ranks(&t, me, &tpr, &dpr);
    int per_dp = op == VSYM_FUSED_REDUCESCATTER || op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE;
    h[0] = per_dp ? (uint64_t)dpr : 0;
    for (size_t i = 0; i < nout * es; i++)
        h[1] = (h[1] ^ (unsigned char)out[i]) * 1099511628211ull;
    VSYM_CHECK_OK(vsym_team_exchange(world, h, sizeof(h), all));
    for (int r = 0; r < W; r++)
        if (all[2 * r] == h[0])
            VSYM_CHECK(all[2 * r + 1] == h[1], "%s: rank %d and rank %d differ", what, r, me);
    free(all);
    if (!sym_out) free(out);
    if (!sym_in) free(in);
}

static void factorisation(int ltp, int itp)
{
    vsym_fused_topo_t g = {ltp, 0, itp, 0}, t;
    vsym_fused_t *f;
    VSYM_CHECK_OK(vsym_fused_create(vsym_team_ctx(world), &g, &f));
    vsym_fused_get_topo(f, &t);
    unsigned ops = vsym_fused_valid_ops(f), modes = vsym_fused_valid_modes(f);
    VSYM_CHECK(ops == vsym_fused_topo_valid_ops(&t) && modes == vsym_fused_topo_valid_modes(&t),
               "handler and pure tables agree");
    size_t counts[] = {0, 1, 7, 1000, MAX_N};
    vsym_dtype_t dts[] = {VSYM_DTYPE_F32, VSYM_DTYPE_F16, VSYM_DTYPE_BF16};
    int cases = 0;
    char what[160];
    /* Ordinary buffers, then symmetric ones: first of a handler made with VSYM_COLL_ZEROCOPY_MIN
     * 0, whose two-shot modes read and write them in place at every size, then of f, where the
     * baseline's collectives see them as their own and the two-shot modes run in place from
     * their auto sizes (beyond the test's but on AMD CPUs). */
    vsym_fused_t *const f_auto = f, *f_zc = NULL;
    static const char *const sym_label[3] = {"", " symmetric (in place from 0)", " symmetric"};
    double pass_s[3];
    for (int pass = 0; pass < 3; pass++) {
        const int sym = pass > 0;
        pass_s[pass] = vsym_test_now();
        if (pass == 1) {
            setenv("VSYM_COLL_ZEROCOPY_MIN", "0", 1);
            VSYM_CHECK_OK(vsym_settings_check());
            VSYM_CHECK_OK(vsym_fused_create(vsym_team_ctx(world), &g, &f_zc));
            f = f_zc;
        } else if (pass == 2) {
            VSYM_CHECK_OK(vsym_fused_destroy(f_zc)); /* and its buffers */
            unsetenv("VSYM_COLL_ZEROCOPY_MIN");
            VSYM_CHECK_OK(vsym_settings_check());
            f = f_auto;
        }
        if (sym) {
            size_t cap = MAX_N * 4 * (size_t)W; /* the largest input or output of any op, f32 */
            VSYM_CHECK_OK(vsym_fused_buffer_alloc(f, cap, (void **)&sym_in));
            VSYM_CHECK_OK(vsym_fused_buffer_alloc(f, cap + 2 * SYM_GUARD, (void **)&sym_out));
        }
        for (int op = 0; op < VSYM_FUSED_OP_COUNT; op++) {
            float x = 0;
            if (!(ops & (1u << op))) {
                VSYM_CHECK_STATUS(vsym_fused_run(f, (vsym_fused_op_t)op, VSYM_FUSED_AUTO, &x, &x, 1,
                                                 VSYM_DTYPE_F32),
                                  VSYM_ERR_BAD_OP, "not valid");
                continue;
            }
            for (int mode = 0; mode < VSYM_FUSED_MODE_COUNT; mode++) {
                if (!(modes & (1u << mode))) {
                    VSYM_CHECK_STATUS(vsym_fused_run(f, (vsym_fused_op_t)op,
                                                     (vsym_fused_mode_t)mode, &x, &x, 1,
                                                     VSYM_DTYPE_F32),
                                      VSYM_ERR_BAD_MODE, "not valid");
                    continue;
                }
                for (int di = 0; di < 3; di++)
                    for (int ci = transport_scope ? 1 : 0; ci < 5; ci++) {
                        if (transport_scope && dts[di] == VSYM_DTYPE_F16) continue;
                        snprintf(what, sizeof(what), "tp %d x dp %d%s: %s %s %s n %zu",
                                 t.local_tp_size, t.local_dp_size, sym_label[pass],
                                 vsym_fused_op_name((vsym_fused_op_t)op),
                                 vsym_fused_mode_name((vsym_fused_mode_t)mode),
                                 vsym_dtype_name(dts[di]), counts[ci]);
                        run_case(f, (vsym_fused_op_t)op, (vsym_fused_mode_t)mode, counts[ci],
                                 dts[di], ci + di, what);
                        cases++;
                    }
                snprintf(what, sizeof(what), "tp %d x dp %d%s: %s %s bitwise", t.local_tp_size,
                         t.local_dp_size, sym_label[pass], vsym_fused_op_name((vsym_fused_op_t)op),
                         vsym_fused_mode_name((vsym_fused_mode_t)mode));
                bitwise_case(f, (vsym_fused_op_t)op, (vsym_fused_mode_t)mode, VSYM_DTYPE_BF16,
                             what);
                /* Back-to-back calls with changing data and no barrier between them, alternating
                 * a size of the low-latency exchange and one of the barrier phases. */
                int reps = slow ? 3000 : transport_scope ? 32 : 200;
                for (int rep = 0; rep < reps; rep++) {
                    snprintf(what, sizeof(what), "tp %d x dp %d%s: %s %s repetition %d",
                             t.local_tp_size, t.local_dp_size, sym_label[pass],
                             vsym_fused_op_name((vsym_fused_op_t)op),
                             vsym_fused_mode_name((vsym_fused_mode_t)mode), rep);
                    run_case(f, (vsym_fused_op_t)op, (vsym_fused_mode_t)mode,
                             (rep % 2 ? 64 : 700) + (size_t)(rep % 5), VSYM_DTYPE_F16, rep, what);
                }
                cases += reps;
            }
        }
        pass_s[pass] = vsym_test_now() - pass_s[pass];
    }
    /* The buffer calls' errors; sym_out is freed by destroy. */
    char local[8];
    VSYM_CHECK_STATUS(vsym_fused_buffer_free(f, local), VSYM_ERR_NOT_FOUND, "not a buffer");
    VSYM_CHECK_STATUS(vsym_fused_buffer_free(f, sym_in + 8), VSYM_ERR_NOT_FOUND, "is not a buffer");
    VSYM_CHECK_STATUS(vsym_fused_buffer_alloc(f, 64, NULL), VSYM_ERR_INVALID_PARAM,
                      "NULL argument");
    VSYM_CHECK_OK(vsym_fused_buffer_free(f, sym_in));
    VSYM_CHECK_OK(vsym_fused_buffer_free(f, NULL));
    sym_in = sym_out = NULL;
    VSYM_CHECK_STATUS(
        vsym_fused_run(f, (vsym_fused_op_t)9, VSYM_FUSED_AUTO, NULL, NULL, 0, VSYM_DTYPE_F32),
        VSYM_ERR_BAD_OP, "unknown");
    /* In and out may not overlap (in place would read outputs already written). */
    for (int op = 0; op < VSYM_FUSED_OP_COUNT; op++) {
        float buf[64] = {0};
        if (!(ops & (1u << op))) continue;
        VSYM_CHECK_STATUS(vsym_fused_run(f, (vsym_fused_op_t)op, VSYM_FUSED_AUTO, buf, buf + 3, 4,
                                         VSYM_DTYPE_F32),
                          VSYM_ERR_INVALID_PARAM, "overlap");
        VSYM_CHECK_STATUS(vsym_fused_run(f, (vsym_fused_op_t)op, VSYM_FUSED_AUTO, buf + 1, buf, 4,
                                         VSYM_DTYPE_F32),
                          VSYM_ERR_INVALID_PARAM, "overlap");
        /* The first count whose bytes for the world (n x 4 x W) overflow. */
        VSYM_CHECK_STATUS(vsym_fused_run(f, (vsym_fused_op_t)op, VSYM_FUSED_AUTO, buf, buf + 32,
                                         SIZE_MAX / (4 * (size_t)W) + 1, VSYM_DTYPE_F32),
                          VSYM_ERR_BAD_SIZE, "overflows");
    }
    VSYM_CHECK_OK(vsym_fused_destroy(f));
    if (me == 0)
        printf("local tp %d x dp %d, inter tp %d x dp %d: %d cases passed (ordinary buffers "
               "%.1f s, symmetric in place from 0 %.1f s, symmetric %.1f s)\n",
               t.local_tp_size, t.local_dp_size, t.inter_tp_size, t.inter_dp_size, cases, pass_s[0],
               pass_s[1], pass_s[2]);
}

/* Autotune writes the table for this topology and host; a new handler loads it. */
/* The mode AUTO picks without a table (the rule in fused.c): across nodes the baseline (TP then
 * DP); on one node, at most 8 ranks, both fused pairs in one exchange up to 256 B of input with a
 * core per rank and, where ranks share cores, 32 KiB (all-reduce + all-gather of ordinary buffers
 * 64 KiB) on AMD CPUs, 8 KiB on others (1 KiB of symmetric buffers, 4 KiB of reduce-scatter +
 * all-reduce of f32); above, all-reduce + all-gather through the baseline up to 2 KiB (of f32 32
 * KiB where ranks share other CPUs' cores) and in two shots beyond, reduce-scatter + all-reduce
 * through the baseline up to 512 KiB (where ranks share cores of other CPUs than AMD's 256 KiB on
 * up to 4 ranks, 128 KiB on more; at every size with more than 8 ranks) and in two shots beyond. */
static void untuned_rule(vsym_fused_t *f)
{
    vsym_fused_topo_t t;
    vsym_fused_get_topo(f, &t);
    const int nodes = t.inter_tp_size * t.inter_dp_size;
    const int wn = t.local_tp_size * t.local_dp_size * nodes,
              dp = t.local_dp_size * t.inter_dp_size;
    const unsigned modes = vsym_fused_valid_modes(f);
    const int base = !!(modes & (1u << VSYM_FUSED_BASELINE));
    const vsym_fused_mode_t two =
        (modes & (1u << VSYM_FUSED_FEWEST_BYTES))
            ? VSYM_FUSED_FEWEST_BYTES
            : ((modes & (1u << VSYM_FUSED_TWOSHOT)) ? VSYM_FUSED_TWOSHOT : VSYM_FUSED_ONESHOT);
    /* input bytes in one exchange: all-reduce + all-gather of ordinary buffers (where ranks
     * share AMD cores 32 KiB from stop 57, 64 KiB before), the others */
    const int shared = !vsym_util_core_per_rank(), amd = vsym_util_cpu_amd();
    const size_t one_max = !shared ? 256
                           : !amd  ? 8192
                                   : 32768,
                 one_max2 = !shared ? 256
                            : !amd  ? 8192
                                    : 32768,
                 one_sym = !shared ? 256
                           : !amd  ? 1024
                                   : 32768; /* symmetric buffers */
    const vsym_fused_mode_t small = base ? VSYM_FUSED_BASELINE : VSYM_FUSED_ONESHOT;
    /* all-reduce + all-gather: one exchange, then the baseline up to base_max bytes of input,
     * then the two-shot modes */
    const int own_few = !shared && !amd && wn <= 8; /* a core per rank, at most 8, not AMD */
    const size_t base_max = own_few ? 512 : 2048;
    /* reduce-scatter + all-reduce: the baseline up to rs_base_max bytes of input (where ranks
     * share cores of other CPUs than AMD's 256 KiB on up to 4 ranks and 128 KiB on more, 512 KiB
     * else), the two-shot modes beyond */
    const size_t rs_base_max = !shared || amd ? (512u << 10)
                               : wn <= 4      ? (256u << 10)
                                              : (128u << 10);
#define ARAG(n)                                                                                    \
    {                                                                                              \
        VSYM_FUSED_ALLREDUCE_ALLGATHER, (n),                                                       \
            wn <= 8 && 2 * (n) <= one_max ? VSYM_FUSED_ONESHOT                                     \
            : 2 * (n) <= base_max         ? small                                                  \
                                          : two                                                    \
    }
    struct {
        vsym_fused_op_t op;
        size_t n; /* bf16 elements per block (input bytes: 2n, times dp for RS + AR) */
        vsym_fused_mode_t one_node;
    } cases[] = {
        /* the last size in one exchange, the next, either side of 512 B and 2 KiB, 4 KiB */
        ARAG(one_max / 2),
        ARAG(one_max / 2 + 1),
        ARAG(256),
        ARAG(257),
        ARAG(1024),
        ARAG(1025),
        ARAG(2048),
        {VSYM_FUSED_REDUCESCATTER_ALLREDUCE, one_max2 / (size_t)(2 * dp),
         wn <= 8 ? VSYM_FUSED_ONESHOT : (base ? VSYM_FUSED_BASELINE : two)},
        {VSYM_FUSED_REDUCESCATTER_ALLREDUCE, one_max2 / (size_t)(2 * dp) + 1,
         base ? VSYM_FUSED_BASELINE : two},
        {VSYM_FUSED_REDUCESCATTER_ALLREDUCE, rs_base_max / 2 / (size_t)dp,
         base ? VSYM_FUSED_BASELINE : two},
        {VSYM_FUSED_REDUCESCATTER_ALLREDUCE, rs_base_max / (size_t)dp,
         wn > 8 && base ? VSYM_FUSED_BASELINE : two},
    };
#undef ARAG
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (!(vsym_fused_valid_ops(f) & (1u << cases[i].op)) || cases[i].n == 0) continue;
        vsym_fused_mode_t want =
            nodes > 1 ? (base ? VSYM_FUSED_BASELINE : VSYM_FUSED_ONESHOT) : cases[i].one_node;
        vsym_fused_mode_t m = vsym_fused_select_mode(f, cases[i].op, cases[i].n, VSYM_DTYPE_BF16);
        VSYM_CHECK(m == want, "%s, n %zu, tp %d x dp %d on %d node(s), untuned: %s, expected %s",
                   vsym_fused_op_name(cases[i].op), cases[i].n, wn / dp, dp, nodes,
                   vsym_fused_mode_name(m), vsym_fused_mode_name(want));
    }
    /* Reduce-scatter + all-reduce of f32: one exchange as of 2-byte elements, but where ranks
     * share cores only to 16 KiB of input on AMD CPUs and 4 KiB on others (the baseline reduces
     * f32 faster) */
    if ((vsym_fused_valid_ops(f) & (1u << VSYM_FUSED_REDUCESCATTER_ALLREDUCE)) && wn <= 8) {
        const size_t f32_max = !shared ? one_max2
                               : amd   ? 16384
                                       : 4096,
                     n32 = f32_max / (4 * (size_t)dp);
        for (size_t n = n32; n <= n32 + 1; n++) {
            vsym_fused_mode_t want = nodes > 1  ? (base ? VSYM_FUSED_BASELINE : VSYM_FUSED_ONESHOT)
                                     : n == n32 ? VSYM_FUSED_ONESHOT
                                     : base     ? VSYM_FUSED_BASELINE
                                                : two;
            vsym_fused_mode_t m =
                vsym_fused_select_mode(f, VSYM_FUSED_REDUCESCATTER_ALLREDUCE, n, VSYM_DTYPE_F32);
            VSYM_CHECK(m == want,
                       "reducescatter_allreduce, f32, %zu bytes of input, untuned: %s, "
                       "expected %s",
                       n * 4 * (size_t)dp, vsym_fused_mode_name(m), vsym_fused_mode_name(want));
        }
    }
    /* Symmetric buffers that every rank reaches: the two-shot modes (in place) from 4 KiB of
     * input on one node (2 KiB where ranks share cores of other CPUs than AMD's; with a core per
     * rank on at most 8 ranks of them 512 B, reduce-scatter + all-reduce 1 KiB; reduce-scatter +
     * all-reduce on more than 8 ranks of TP 2: from 16 KiB) but where one exchange is taken (at
     * most 8 ranks, up to one_sym) and reduce-scatter + all-reduce from 16 KiB with a core per
     * rank on other CPUs than AMD's; else, and for ordinary buffers, the rule above. */
    const int in_place = nodes == 1 && !transport_scope;
    char *si, *so, heap[16];
    VSYM_CHECK_OK(vsym_fused_buffer_alloc(f, (size_t)dp << 20, (void **)&si));
    VSYM_CHECK_OK(vsym_fused_buffer_alloc(f, (size_t)dp << 20, (void **)&so));
    for (int op = VSYM_FUSED_ALLREDUCE_ALLGATHER; op <= VSYM_FUSED_REDUCESCATTER_ALLREDUCE; op++) {
        if (!(vsym_fused_valid_ops(f) & (1u << op))) continue;
        /* In place only from VSYM_COLL_ZEROCOPY_MIN (auto: all-reduce + all-gather from 1 MiB,
         * reduce-scatter + all-reduce never); below, symmetric buffers take the ordinary rule. */
        const size_t zc_from =
            op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE ? SIZE_MAX : (size_t)1 << 20;
        for (size_t bytes = 512; bytes <= ((size_t)1 << 20); bytes *= 2) {
            if (bytes > 65536 && bytes != zc_from && bytes != zc_from / 2 &&
                bytes != ((size_t)1 << 20))
                continue;
            size_t n = bytes / 2 / (op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE ? (size_t)dp : 1);
            vsym_fused_mode_t plain =
                vsym_fused_select_mode(f, (vsym_fused_op_t)op, n, VSYM_DTYPE_BF16);
            const int rs_ar = op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE;
            const size_t sym_min = rs_ar && wn > 8 && wn / dp == 2 ? 16384
                                   : own_few                       ? (rs_ar ? 1024 : 512)
                                   : !amd                          ? 2048
                                                                   : 4096;
            /* (reduce-scatter + all-reduce up to 2 KiB where ranks share cores of other CPUs) */
            const int one =
                wn <= 8 &&
                bytes <=
                    (shared && !amd && op == VSYM_FUSED_REDUCESCATTER_ALLREDUCE ? 2048 : one_sym);
            /* (reduce-scatter + all-reduce with a core per rank, not AMD: the baseline's rule
             * from 16 KiB, as with ordinary buffers) */
            const int rs_base = rs_ar && !shared && !amd && bytes >= 16384;
            const int zc = in_place && bytes >= zc_from;
            vsym_fused_mode_t want = zc && bytes >= sym_min && !one && !rs_base ? two : plain;
            /* (where ranks share AMD cores on one node and reach each other's symmetric buffers,
             * all-reduce + all-gather not in place: one exchange to 16 KiB of 2-byte elements, the
             * two-shot modes beyond) */
            if (shared && amd && op == VSYM_FUSED_ALLREDUCE_ALLGATHER && !zc && wn <= 8 && in_place)
                want = bytes <= 16384 ? VSYM_FUSED_ONESHOT : two;
            vsym_fused_mode_t m =
                vsym_fused_select_mode_for(f, (vsym_fused_op_t)op, si, so, n, VSYM_DTYPE_BF16);
            VSYM_CHECK(m == want, "%s, %zu bytes, symmetric buffers, untuned: %s, expected %s",
                       vsym_fused_op_name((vsym_fused_op_t)op), bytes, vsym_fused_mode_name(m),
                       vsym_fused_mode_name(want));
            m = vsym_fused_select_mode_for(f, (vsym_fused_op_t)op, heap, heap, n, VSYM_DTYPE_BF16);
            VSYM_CHECK(m == plain, "%s, %zu bytes, ordinary buffers: %s, expected %s",
                       vsym_fused_op_name((vsym_fused_op_t)op), bytes, vsym_fused_mode_name(m),
                       vsym_fused_mode_name(plain));
            /* the two-shot mode run on them: in place from zc_from alone (1 MiB and its half;
             * reduce-scatter + all-reduce 1 MiB, never) */
            if (bytes > 65536 && two != VSYM_FUSED_ONESHOT) {
                const uint64_t before = vsym_fused_in_place_runs(f);
                VSYM_CHECK_OK(
                    vsym_fused_run(f, (vsym_fused_op_t)op, two, si, so, n, VSYM_DTYPE_BF16));
                VSYM_CHECK(vsym_fused_in_place_runs(f) - before == (uint64_t)zc,
                           "%s, %zu bytes, symmetric buffers, %s: %s in place, expected %s",
                           vsym_fused_op_name((vsym_fused_op_t)op), bytes,
                           vsym_fused_mode_name(two),
                           vsym_fused_in_place_runs(f) == before ? "not run" : "run",
                           zc ? "run" : "not run");
            }
        }
    }
    /* All-reduce + all-gather of f32 where ranks share cores: on AMD's (stop 57) one exchange to 32
     * KiB of input from symmetric buffers as from ordinary ones (2-byte elements of symmetric
     * buffers to 16 KiB, above), the two-shot modes beyond; on others' (stop 68) one exchange to 8
     * KiB, the baseline to 32 KiB (2-byte elements: the two-shot modes from 8 KiB), the two-shot
     * modes beyond. */
    if (shared && nodes == 1 && wn <= 8 &&
        (vsym_fused_valid_ops(f) & (1u << VSYM_FUSED_ALLREDUCE_ALLGATHER))) {
        const size_t f32_amd[] = {16384, 32768, 65536}, f32_other[] = {8192, 8196, 32768, 32772};
        const size_t *f32_in = amd ? f32_amd : f32_other;
        const size_t cnt =
            amd ? sizeof(f32_amd) / sizeof(f32_amd[0]) : sizeof(f32_other) / sizeof(f32_other[0]);
        for (size_t k = 0; k < cnt; k++) {
            const size_t n = f32_in[k] / 4;
            const vsym_fused_mode_t want_sym = f32_in[k] <= (amd ? 32768 : 8192)
                                                   ? VSYM_FUSED_ONESHOT
                                               : !amd && f32_in[k] <= 32768 ? small
                                                                            : two,
                                    want_plain = want_sym;
            const vsym_fused_mode_t ms = vsym_fused_select_mode_for(f,
                                                                    VSYM_FUSED_ALLREDUCE_ALLGATHER,
                                                                    si, so, n, VSYM_DTYPE_F32),
                                    mp = vsym_fused_select_mode_for(f,
                                                                    VSYM_FUSED_ALLREDUCE_ALLGATHER,
                                                                    heap, heap, n, VSYM_DTYPE_F32);
            VSYM_CHECK(ms == want_sym && mp == want_plain,
                       "allreduce_allgather, f32, %zu bytes of input, untuned: symmetric buffers "
                       "%s, expected %s; ordinary %s, expected %s",
                       f32_in[k], vsym_fused_mode_name(ms), vsym_fused_mode_name(want_sym),
                       vsym_fused_mode_name(mp), vsym_fused_mode_name(want_plain));
        }
    }
    VSYM_CHECK_OK(vsym_fused_buffer_free(f, so));
    VSYM_CHECK_OK(vsym_fused_buffer_free(f, si));
}

/* AUTO remembers its last answer (vsym_fused_run) until the settings or the tables change: with
 * the table of path loaded again, its entries for one op at 64 elements rewritten to another
 * valid mode, the next AUTO call at that size runs that mode. */
static void remembered_auto(vsym_fused_t *g, const char *path)
{
    vsym_fused_op_t op = VSYM_FUSED_OP_COUNT;
    for (int o = 0; o < VSYM_FUSED_OP_COUNT; o++)
        if (vsym_fused_valid_ops(g) & (1u << o)) op = (vsym_fused_op_t)o;
    size_t nin, nout;
    vsym_fused_shapes(g, op, 64, &nin, &nout);
    run_case(g, op, VSYM_FUSED_AUTO, 64, VSYM_DTYPE_BF16, 5, "auto, remembered");
    const int was = vsym_coll_fused_last_auto(g);
    VSYM_CHECK(was == (int)vsym_fused_select_mode(g, op, 64, VSYM_DTYPE_BF16),
               "AUTO ran %s, the table says %s",
               was < 0 ? "none" : vsym_fused_mode_name((vsym_fused_mode_t)was),
               vsym_fused_mode_name(vsym_fused_select_mode(g, op, 64, VSYM_DTYPE_BF16)));
    int alt = -1;
    for (int m = 1; m < VSYM_FUSED_MODE_COUNT && alt < 0; m++)
        if (m != was && m != VSYM_FUSED_AUTO && (vsym_fused_valid_modes(g) & (1u << m))) alt = m;
    if (alt < 0) return; /* one valid mode: nothing to change it to */
    if (me == 0) {
        FILE *fp = fopen(path, "r");
        VSYM_CHECK(fp != NULL, "open %s", path);
        char text[1 << 16], line[512], name[64], mode[64];
        size_t len = 0;
        int bucket, hits = 0;
        double us;
        text[0] = '\0';
        while (fgets(line, sizeof(line), fp) && len + sizeof(line) < sizeof(text)) {
            if (sscanf(line, "entry %63s %d %63s %lf", name, &bucket, mode, &us) == 4 &&
                strcmp(name, vsym_fused_op_name(op)) == 0 &&
                bucket == vsym_coll_tune_bucket(nin * 2)) {
                snprintf(line, sizeof(line), "entry %s %d %s %.3f\n", name, bucket,
                         vsym_fused_mode_name((vsym_fused_mode_t)alt), us);
                hits++;
            }
            len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", line);
        }
        fclose(fp);
        VSYM_CHECK(hits > 0, "%s has no entry of %s at bucket %d", path, vsym_fused_op_name(op),
                   vsym_coll_tune_bucket(nin * 2));
        fp = fopen(path, "w");
        VSYM_CHECK(fp != NULL && fputs(text, fp) >= 0 && fclose(fp) == 0, "rewrite %s", path);
    }
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    VSYM_CHECK_OK(vsym_fused_autotune_load(g, path));
    run_case(g, op, VSYM_FUSED_AUTO, 64, VSYM_DTYPE_BF16, 6, "auto, the table loaded anew");
    const int now = vsym_coll_fused_last_auto(g);
    VSYM_CHECK(now == alt, "AUTO ran %s after the table changed, not %s",
               now < 0 ? "none" : vsym_fused_mode_name((vsym_fused_mode_t)now),
               vsym_fused_mode_name((vsym_fused_mode_t)alt));
}

/* The autotune's file, which rank 0 removes at exit, a failed check's too. */
static char tune_path[64];

static void tune_path_unlink(void)
{
    unlink(tune_path);
}

static void autotune(void)
{
    char *path = tune_path;
    int pid = (int)getpid(), *pids = malloc((size_t)W * sizeof(int));
    VSYM_CHECK_OK(vsym_team_exchange(world, &pid, sizeof(pid), pids));
    snprintf(tune_path, sizeof(tune_path), "/tmp/vsym_coll_fused_tune_%d", pids[0]);
    free(pids);
    if (me == 0) atexit(tune_path_unlink);
    /* Settings are read once; vsym_settings_check() reloads them after a change. The default
     * scratch (512 KiB): chunking is the factorisations' business, and the rule's runs of 512 KiB
     * and 1 MiB in 4 KiB chunks took two minutes in the VM across pretend nodes. */
    setenv("VSYM_AUTOTUNE_FILE", path, 1);
    unsetenv("VSYM_COLL_SCRATCH");
    VSYM_CHECK_OK(vsym_settings_check());
    vsym_fused_t *f;
    VSYM_CHECK_OK(vsym_fused_create(vsym_team_ctx(world), NULL, &f));
    /* The rule with a core per rank and with ranks sharing cores, whatever this machine has. */
    for (int per_core = 0; per_core < 2; per_core++) {
        vsym_util_core_per_rank_force(per_core);
        untuned_rule(f);
        if (vsym_team_size(vsym_team_node(vsym_team_ctx(world))) % 2 == 0) {
            /* A TP x DP split of the node (the derived topology has dp 1 inside a node). */
            vsym_fused_topo_t given = {2, 0, 0, 0};
            vsym_fused_t *h;
            VSYM_CHECK_OK(vsym_fused_create(vsym_team_ctx(world), &given, &h));
            untuned_rule(h);
            VSYM_CHECK_OK(vsym_fused_destroy(h));
        }
    }
    vsym_util_core_per_rank_force(-1);
    /* 64 B-4 KiB of input; in the transport scope (the VM groups, where each size's rounds take
     * seconds) 64-256 B, which holds the bucket remembered_auto rewrites. */
    VSYM_CHECK_OK(vsym_fused_autotune(f, VSYM_DTYPE_BF16, 6, transport_scope ? 8 : 12, 1));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0)); /* rank 0 has written the file */
    VSYM_CHECK(access(path, R_OK) == 0, "autotune saved %s", path);
    vsym_fused_t *g;
    VSYM_CHECK_OK(vsym_fused_create(vsym_team_ctx(world), NULL, &g));
    unsigned ops = vsym_fused_valid_ops(g), modes = vsym_fused_valid_modes(g);
    /* The table of symmetric buffers is tuned, saved and loaded too. */
    char *fi, *fo, *gi, *go;
    VSYM_CHECK_OK(vsym_fused_buffer_alloc(f, 1 << 16, (void **)&fi));
    VSYM_CHECK_OK(vsym_fused_buffer_alloc(f, 1 << 16, (void **)&fo));
    VSYM_CHECK_OK(vsym_fused_buffer_alloc(g, 1 << 16, (void **)&gi));
    VSYM_CHECK_OK(vsym_fused_buffer_alloc(g, 1 << 16, (void **)&go));
    for (int op = 0; op < VSYM_FUSED_OP_COUNT; op++)
        for (size_t n = 8; (ops & (1u << op)) && n <= 8192; n *= 4) {
            vsym_fused_mode_t a =
                vsym_fused_select_mode_for(f, (vsym_fused_op_t)op, fi, fo, n, VSYM_DTYPE_BF16);
            vsym_fused_mode_t b =
                vsym_fused_select_mode_for(g, (vsym_fused_op_t)op, gi, go, n, VSYM_DTYPE_BF16);
            VSYM_CHECK(a == b && a != VSYM_FUSED_AUTO && (modes & (1u << a)),
                       "symmetric buffers: loaded table picks %s, tuned %s",
                       vsym_fused_mode_name(b), vsym_fused_mode_name(a));
        }
    VSYM_CHECK_OK(vsym_fused_buffer_free(g, go));
    VSYM_CHECK_OK(vsym_fused_buffer_free(g, gi));
    VSYM_CHECK_OK(vsym_fused_buffer_free(f, fo));
    VSYM_CHECK_OK(vsym_fused_buffer_free(f, fi));
    /* Both kinds are in the file, each under its own key; the symmetric one only where every
     * peer is on shared memory (over verbs symmetric buffers take the ordinary paths, and the
     * autotune times them once). */
    vsym_coll_t *c;
    VSYM_CHECK_OK(vsym_coll_create(world, &c));
    const int sym_tuned = c->all_direct;
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    if (W > 1 && !transport_scope && me == 0) {
        FILE *fp = fopen(path, "r");
        char line[512];
        int sym_keys = 0, keys = 0;
        while (fp && fgets(line, sizeof(line), fp))
            if (strncmp(line, "key ", 4) == 0) {
                keys++;
                sym_keys += strstr(line, "dtype=bf16 buffers=symmetric") != NULL;
            }
        if (fp) fclose(fp);
        VSYM_CHECK(keys == 1 + sym_tuned && sym_keys == sym_tuned,
                   "%s holds %d tables, %d of symmetric buffers (expected %d, %d)", path, keys,
                   sym_keys, 1 + sym_tuned, sym_tuned);
    }
    for (int op = 0; op < VSYM_FUSED_OP_COUNT; op++) {
        if (!(ops & (1u << op))) continue;
        for (size_t n = 8; n <= 8192; n *= 4) {
            vsym_fused_mode_t a =
                vsym_fused_select_mode(f, (vsym_fused_op_t)op, n, VSYM_DTYPE_BF16);
            vsym_fused_mode_t b =
                vsym_fused_select_mode(g, (vsym_fused_op_t)op, n, VSYM_DTYPE_BF16);
            VSYM_CHECK(a == b && a != VSYM_FUSED_AUTO && (modes & (1u << a)),
                       "loaded table picks %s, tuned %s", vsym_fused_mode_name(b),
                       vsym_fused_mode_name(a));
            run_case(g, (vsym_fused_op_t)op, VSYM_FUSED_AUTO, n, VSYM_DTYPE_BF16, (int)n, "auto");
        }
    }
    remembered_auto(g, path);
    /* VSYM_FUSED_MODE forces a mode. */
    setenv("VSYM_FUSED_MODE", "oneshot", 1);
    VSYM_CHECK_OK(vsym_settings_check());
    VSYM_CHECK(vsym_fused_select_mode(g, (vsym_fused_op_t)(VSYM_FUSED_OP_COUNT - 1), 1 << 20,
                                      VSYM_DTYPE_BF16) == VSYM_FUSED_ONESHOT,
               "VSYM_FUSED_MODE forces oneshot");
    /* AUTO calls read it anew after each reload of the settings: a name that is no mode fails
     * them, naming it, and they run again once it is gone. */
    vsym_fused_op_t any = VSYM_FUSED_OP_COUNT;
    for (int op = 0; op < VSYM_FUSED_OP_COUNT; op++)
        if (vsym_fused_valid_ops(g) & (1u << op)) any = (vsym_fused_op_t)op;
    setenv("VSYM_FUSED_MODE", "fastest", 1);
    VSYM_CHECK_OK(vsym_settings_check());
    run_case(g, any, VSYM_FUSED_BASELINE, 64, VSYM_DTYPE_BF16, 3, "baseline beside a bad setting");
    {
        size_t nin, nout;
        vsym_fused_shapes(g, any, 64, &nin, &nout);
        uint16_t *in = calloc(nin, 2), *out = calloc(nout, 2);
        VSYM_CHECK(in && out, "memory");
        VSYM_CHECK_STATUS(vsym_fused_run(g, any, VSYM_FUSED_AUTO, in, out, 64, VSYM_DTYPE_BF16),
                          VSYM_ERR_BAD_MODE, "fastest");
        free(in);
        free(out);
    }
    unsetenv("VSYM_FUSED_MODE");
    VSYM_CHECK_OK(vsym_settings_check());
    run_case(g, any, VSYM_FUSED_AUTO, 64, VSYM_DTYPE_BF16, 4, "auto once the setting is gone");
    VSYM_CHECK_OK(vsym_fused_destroy(g));
    VSYM_CHECK_OK(vsym_fused_destroy(f));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    if (me == 0) unlink(path);
    unsetenv("VSYM_AUTOTUNE_FILE");
    VSYM_CHECK_OK(vsym_settings_check());
}

int main(int argc, char **argv)
{
    slow = argc > 1 && strcmp(argv[1], "--slow") == 0;
    transport_scope = vsym_test_scope_is("transport");
    setenv("VSYM_COLL_SCRATCH", "4K", 1); /* chunking at small sizes */
    vsym_ctx_t *ctx;
    VSYM_CHECK_OK(vsym_init(&ctx));
    world = vsym_team_world(ctx);
    W = vsym_team_size(world);
    me = vsym_team_rank(world);
    int L = vsym_team_size(vsym_team_node(ctx)), nodes = W / L;
    /* Every factorisation of the node (local TP x DP) and of the nodes (inter TP x DP). */
    for (int ltp = 1; ltp <= L; ltp++)
        for (int itp = 1; itp <= nodes; itp++)
            if (L % ltp == 0 && nodes % itp == 0) VSYM_TEST_STEP(me == 0, factorisation(ltp, itp));
    VSYM_TEST_STEP(me == 0, autotune());
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
