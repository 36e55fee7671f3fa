/* mpi-coll: Open MPI's collectives timed the way vsym-bench times ours, for side-by-side
 * comparison (benches/peers/compare and results/). Our own program.
 *
 *   mpirun --allow-run-as-root --oversubscribe -np 2 mpi-coll -b 8 -e 64M --json FILE
 *
 * Records (suite / op / mode), float data (MPI_FLOAT, MPI_SUM), size S as in nccl-tests (one
 * rank's buffer: the all-reduce and broadcast vector, the all-gather output, the reduce-scatter
 * input, the all-to-all buffer), bw_gbs = algbw = S / time:
 *   allreduce/allreduce/{out-of-place,in-place}   MPI_Allreduce
 *   allgather/allgather/out-of-place              MPI_Allgather
 *   reduce-scatter/reduce-scatter/out-of-place    MPI_Reduce_scatter_block
 *   broadcast/broadcast/in-place                  MPI_Bcast from rank 0 (one buffer, the root's
 *        data already in it: vsym's broadcast in place; out of place vsym's root also copies
 *        its src into its dst; before stop 52 these records said out-of-place)
 *   alltoall/alltoall/out-of-place                MPI_Alltoall
 *   fused/<op>/mpi-tp<T>xdp<D>                    the unfused MPI sequence of a fused op on every
 *        TP x DP factorisation of the ranks (one node): allreduce_allgather = MPI_Allreduce on
 *        the TP communicator then MPI_Allgather on the DP one; reducescatter_allreduce =
 *        MPI_Reduce_scatter_block on DP then MPI_Allreduce on TP (S = one rank's input).
 * --only NAME runs one of allreduce, allgather, reduce-scatter, broadcast, alltoall, fused.
 * --touch stores into every line of src before each call (timed), as vsym-bench --touch does
 * (the fused sequence's: one rank's input); records say "touch". --consume loads every line of
 * the output after each call (timed), as vsym-bench --consume does; records say "consume".
 * Times are the slowest rank's (each rank times the same number of calls). Every record carries
 * core_rtt_ns as vsym-bench's do (the cores' round trip just before its size: between ranks 0
 * and 1 through a shared window where each rank has a core, else between two threads of rank 0),
 * so that the two programs' rows can be placed by the machine's state alike. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "inputs.h"
#include "peer_common.h"
#include "rtt.h"
#include "util/util.h"

typedef struct mrun {
    int kind;
    float *src, *dst, *tmp;
    int count; /* elements per rank (allreduce, bcast) or per block */
    int inplace;
    MPI_Comm tp, dp;
    int fop; /* 0 allreduce_allgather, 1 reducescatter_allreduce */
    int touch; /* --touch: src_bytes of src stored, line by line, before each call */
    size_t src_bytes;
    int consume; /* --consume: dst_bytes of the output loaded, line by line, after each call */
    size_t dst_bytes;
} mrun_t;

enum { K_AR, K_AG, K_RS, K_BC, K_A2A, K_FUSED };
static const char *const kind_names[] = {"allreduce", "allgather", "reduce-scatter",
                                         "broadcast", "alltoall",  "fused"};

static void unit(void *arg, long i)
{
    mrun_t *r = arg;
    (void)i;
    if (r->touch) /* as vsym-bench --touch: the same bytes back, the lines modified here */
        vsym_util_store_lines(r->src, r->src_bytes);
    switch (r->kind) {
    case K_AR:
        MPI_Allreduce(r->inplace ? MPI_IN_PLACE : r->src, r->inplace ? r->src : r->dst, r->count,
                      MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case K_AG:
        MPI_Allgather(r->src, r->count, MPI_FLOAT, r->dst, r->count, MPI_FLOAT, MPI_COMM_WORLD);
        break;
    case K_RS:
        MPI_Reduce_scatter_block(r->src, r->dst, r->count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case K_BC:
        MPI_Bcast(r->src, r->count, MPI_FLOAT, 0, MPI_COMM_WORLD);
        break;
    case K_A2A:
        MPI_Alltoall(r->src, r->count, MPI_FLOAT, r->dst, r->count, MPI_FLOAT, MPI_COMM_WORLD);
        break;
    default:
        if (r->fop == 0) {
            MPI_Allreduce(r->src, r->tmp, r->count, MPI_FLOAT, MPI_SUM, r->tp);
            MPI_Allgather(r->tmp, r->count, MPI_FLOAT, r->dst, r->count, MPI_FLOAT, r->dp);
        } else {
            MPI_Reduce_scatter_block(r->src, r->tmp, r->count, MPI_FLOAT, MPI_SUM, r->dp);
            MPI_Allreduce(r->tmp, r->dst, r->count, MPI_FLOAT, MPI_SUM, r->tp);
        }
        break;
    }
    if (r->consume) /* as vsym-bench --consume: the result read where the caller would */
        vsym_util_load_lines(r->inplace || r->kind == K_BC ? r->src : r->dst, r->dst_bytes);
}

/* The round trip's line: rank 0's word of a window shared by the node's ranks (NULL: ranks share
 * cores, or not all on one node, or fewer than 2), and the sequence reached. */
typedef struct rtt_line {
    volatile uint64_t *w;
    int per_core;
    uint64_t seq;
    MPI_Win win;
} rtt_line_t;

static void rtt_setup(rtt_line_t *l, int n)
{
    MPI_Comm node;
    int nn;
    memset(l, 0, sizeof(*l));
    l->win = MPI_WIN_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nn);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    l->per_core = n >= 2 && nn == n && cores > 0 && n <= cores;
    if (l->per_core) {
        int me;
        MPI_Aint size;
        int disp;
        void *base;
        MPI_Comm_rank(node, &me);
        MPI_Win_allocate_shared(me == 0 ? 64 : 0, 1, MPI_INFO_NULL, node, &base, &l->win);
        MPI_Win_shared_query(l->win, 0, &size, &disp, &base);
        l->w = base;
        if (me == 0) *l->w = 0;
    }
    MPI_Comm_free(&node);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every rank: the round trip (on rank 0; -1 elsewhere or where not measured). */
static double rtt_measure(rtt_line_t *l, int me, int n)
{
    if (n < 2) return -1;
    if (!l->per_core) return me == 0 ? vsym_rtt_threads() : -1;
    uint64_t base = l->seq;
    l->seq += 2 * (VSYM_RTT_WARM + VSYM_RTT_TIMED);
    return me <= 1 ? vsym_rtt_side(l->w, base, me) : -1;
}

/* Time on every rank; keep the slowest rank's statistics (its average decides). */
static void measure(const peer_opts_t *o, double clock_ns, mrun_t *r, size_t bytes,
                    rtt_line_t *line, peer_stats_t *st)
{
    long iters = peer_iterations(o, (double)bytes);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Barrier(MPI_COMM_WORLD);
    double rtt = rtt_measure(line, me, n);
    MPI_Barrier(MPI_COMM_WORLD);
    peer_measure(o, clock_ns, unit, r, (double)bytes, 1, 1, iters, st);
    struct {
        double v;
        int rank;
    } in = {st->lat_avg, me}, out;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Bcast(st, (int)sizeof(*st), MPI_BYTE, out.rank, MPI_COMM_WORLD);
    if (me == 0) st->core_rtt_ns = rtt;
}

int main(int argc, char **argv)
{
    peer_opts_t o;
    int me, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    peer_parse(argc, argv, "mpi-coll", &o);
    peer_check_only(&o, kind_names, sizeof(kind_names) / sizeof(kind_names[0]));
    o.ranks = n;
    double clock_ns = peer_clock_ns();
    vsym_bench_results_t *res = (me == 0 && o.json) ? peer_open(&o) : NULL;
    size_t cap = o.max_size * (size_t)n + 64;
    mrun_t r;
    rtt_line_t line;
    rtt_setup(&line, n);
    memset(&r, 0, sizeof(r));
    r.src = malloc(cap);
    r.dst = malloc(cap);
    r.tmp = malloc(cap);
    if (!r.src || !r.dst || !r.tmp) {
        fprintf(stderr, "mpi-coll: no memory for %zu bytes\n", cap);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    vsym_bench_input_fill(r.src, cap);
    vsym_bench_input_fill(r.dst, cap);
    vsym_bench_input_fill(r.tmp, cap);
    o.input_byte = VSYM_BENCH_INPUT_BYTE;
    for (int kind = 0; kind <= K_FUSED; kind++) {
        if (o.only && strcmp(o.only, kind_names[kind]) != 0) continue;
        if (me == 0)
            printf("# %s (Open MPI, float, %d ranks)\n%12s %14s %12s\n", kind_names[kind], n,
                   "size", "time_avg[us]", "algbw[GB/s]");
        int nfact = kind == K_FUSED ? n : 1;
        for (int ltp = 1; ltp <= nfact; ltp++) {
            if (kind == K_FUSED) {
                int dp = n / ltp;
                if (n % ltp != 0 || ltp == 1 || dp == 1)
                    continue; /* the fused ops need tp > 1 and dp > 1 */
                /* One node: tp_rank = local_rank % ltp, dp_rank = local_rank / ltp. */
                MPI_Comm_split(MPI_COMM_WORLD, me / ltp, me % ltp, &r.tp);
                MPI_Comm_split(MPI_COMM_WORLD, me % ltp, me / ltp, &r.dp);
            }
            for (int fop = 0; fop < (kind == K_FUSED ? 2 : 1); fop++) {
                r.fop = fop;
                for (size_t s = o.min_size; s <= o.max_size; s *= o.factor) {
                    size_t per = (kind == K_AR || kind == K_BC) ? 1
                                 : kind == K_FUSED              ? (fop == 1 ? (size_t)(n / ltp) : 1)
                                                                : (size_t)n;
                    size_t bytes = peer_coll_count(s, per, sizeof(float), &r.count);
                    r.kind = kind;
                    if (bytes == 0) continue;
                    /* The src a rank reads (the broadcast's: the root's only). */
                    r.touch = o.touch && (kind != K_BC || me == 0);
                    r.src_bytes = kind == K_AG ? bytes / (size_t)n : bytes;
                    r.consume = o.consume;
                    r.dst_bytes = kind == K_RS      ? bytes / (size_t)n
                                  : kind == K_FUSED ? (size_t)r.count * sizeof(float) *
                                                          (fop == 0 ? (size_t)(n / ltp) : 1)
                                                    : bytes;
                    for (int ip = 0; ip < (kind == K_AR ? 2 : 1); ip++) {
                        peer_stats_t st;
                        char mode[64];
                        r.inplace = ip;
                        measure(&o, clock_ns, &r, bytes, &line, &st);
                        if (kind == K_FUSED)
                            snprintf(mode, sizeof(mode), "mpi-tp%dxdp%d", ltp, n / ltp);
                        else
                            snprintf(mode, sizeof(mode), "%s",
                                     ip || kind == K_BC ? "in-place" : "out-of-place");
                        const char *op = kind == K_FUSED ? (fop == 0 ? "allreduce_allgather"
                                                                     : "reducescatter_allreduce")
                                                         : kind_names[kind];
                        if (me == 0) {
                            printf("%12zu %14.2f %12.3f  %s %s\n", bytes, st.lat_avg,
                                   (double)bytes / (st.lat_avg * 1e3), op, mode);
                            if (res)
                                peer_emit(res, &o, clock_ns, kind_names[kind], op, mode, bytes,
                                          &st);
                        }
                    }
                    if (o.factor < 2) break;
                }
            }
            if (kind == K_FUSED) {
                MPI_Comm_free(&r.tp);
                MPI_Comm_free(&r.dp);
            }
        }
    }
    vsym_bench_results_close(res);
    if (line.win != MPI_WIN_NULL) MPI_Win_free(&line.win);
    free(r.src);
    free(r.dst);
    free(r.tmp);
    MPI_Finalize();
    return 0;
}
