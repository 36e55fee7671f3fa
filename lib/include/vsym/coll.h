/* vsym collectives: barrier, broadcast, all-gather, reduce-scatter, all-reduce, all-to-all on any
 * team, and the fused collectives of a two-level TP x DP topology (FlashInfer's
 * MixedCommHandler) with autotune.
 *
 * Handles. A collective handle (vsym_coll_t) belongs to one team and caches its scratch
 * symmetric memory, so the collective calls themselves allocate nothing. Every rank of the team
 * calls the same collectives in the same order with the same count, dtype, op, root and algo
 * (a mismatch is undefined: it may time out). A handle is used by one thread at a time.
 *
 * Buffers. src and dst are ordinary local memory (no registration needed); the data travels
 * through the handle's scratch memory in chunks of VSYM_COLL_SCRATCH bytes, so any size works.
 * In-place: pass the same pointer for src and dst (all-gather: src == dst + rank * count;
 * reduce-scatter: dst == src + rank * count). Counts are in elements. A count of 0 is valid and
 * does nothing and returns VSYM_OK (no synchronisation).
 *
 * Results. Every algorithm reduces in an order fixed by the algorithm and the team, and each
 * reduced element is computed by one rank (or identically by several), so every rank gets
 * bitwise the same result. f16 and bf16 accumulate in f32 and round to nearest even.
 *
 * Completion. Every call is blocking: when it returns, dst holds the result and src may be
 * reused. Waits fail with VSYM_ERR_TIMED_OUT (VSYM_TIMEOUT) naming the peer.
 */
#ifndef VSYM_COLL_H
#define VSYM_COLL_H

#include <stddef.h>
#include <stdint.h>
#include <vsym/core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vsym_dtype {
    VSYM_DTYPE_F32,
    VSYM_DTYPE_F64,
    VSYM_DTYPE_F16,  /* IEEE binary16 */
    VSYM_DTYPE_BF16, /* bfloat16 */
    VSYM_DTYPE_I32,
    VSYM_DTYPE_I64,
    VSYM_DTYPE_U64,
    VSYM_DTYPE_COUNT
} vsym_dtype_t;

typedef enum vsym_red_op {
    VSYM_RED_SUM,
    VSYM_RED_MIN,
    VSYM_RED_MAX,
    VSYM_RED_PROD, /* integer types only */
    VSYM_RED_COUNT
} vsym_red_op_t;

/* Algorithms. AUTO reads VSYM_COLL_ALGO, and when that is "auto" picks by size and by how the
 * peers are reached. An algorithm that does not apply to a collective maps to the nearest one:
 *   ONESHOT  every rank publishes its data once, every rank reads what it needs from all peers
 *            and reduces in rank order. With every peer on the node: load/store. With peers
 *            over verbs: a push exchange, every rank puts each peer's data into that peer's
 *            landing slot with a counter add (no barrier, one network crossing per 64 KiB), up
 *            to VSYM_COLL_NET_LL_MAX (1 KiB) per peer as one write of 8-byte words that each
 *            carry 4 data bytes and the exchange's flag (no atomic); the
 *            all-reduce across nodes of equal size sends each vector over the network once
 *            per node (to the ranks of equal local rank) and shares it inside the node.
 *   TWOSHOT  reduce-scatter then all-gather (all-reduce), scatter then all-gather (broadcast);
 *            the same as ONESHOT for all-gather, reduce-scatter and all-to-all.
 *   RING     pairwise ring steps (all-reduce, all-gather, reduce-scatter), a chain (broadcast);
 *            ONESHOT for all-to-all.
 *   RD       recursive doubling (all-reduce; all-gather on power-of-two teams, else RING),
 *            a binomial tree (broadcast); ONESHOT for reduce-scatter and all-to-all.
 *   HIER     two levels: a reduce-scatter inside each node through its scratch, an all-reduce
 *            of each rank's segment across nodes between ranks of equal local rank (with the
 *            algorithm AUTO picks for it, whatever VSYM_COLL_ALGO says), then an all-gather
 *            inside the node (all-reduce); teams that are not a regular node-major layout, and
 *            the other collectives, use TWOSHOT. */
typedef enum vsym_coll_algo {
    VSYM_COLL_AUTO,
    VSYM_COLL_ONESHOT,
    VSYM_COLL_TWOSHOT,
    VSYM_COLL_RING,
    VSYM_COLL_RD,
    VSYM_COLL_HIER,
    VSYM_COLL_ALGO_COUNT
} vsym_coll_algo_t;

typedef struct vsym_coll vsym_coll_t;

/* Bytes of one element of dtype; 0 for an unknown dtype. */
VSYM_API size_t vsym_dtype_size(vsym_dtype_t dtype);

/* Names ("f32", "bf16", "sum", "twoshot") and their parsers. The name functions return "?"
 * for unknown values; the parsers return VSYM_ERR_BAD_DTYPE, VSYM_ERR_BAD_OP or
 * VSYM_ERR_BAD_MODE for unknown names. */
VSYM_API const char *vsym_dtype_name(vsym_dtype_t dtype);
VSYM_API vsym_status_t vsym_dtype_from_name(const char *name, vsym_dtype_t *dtype_p);
VSYM_API const char *vsym_red_op_name(vsym_red_op_t op);
VSYM_API vsym_status_t vsym_red_op_from_name(const char *name, vsym_red_op_t *op_p);
VSYM_API const char *vsym_coll_algo_name(vsym_coll_algo_t algo);
VSYM_API vsym_status_t vsym_coll_algo_from_name(const char *name, vsym_coll_algo_t *algo_p);

/* Create a collective handle for team: allocates the scratch symmetric memory once (four
 * regions of VSYM_COLL_SCRATCH bytes, plus 256 KiB for the low-latency protocol, per rank) and
 * reads VSYM_COLL_ALGO. With peers over verbs, the first one-shot collective adds landing slots
 * for the push exchange per rank: 2 x team size x at most 64 KiB of data (2 MiB at most), 2 x
 * team size x 2 KiB for its flagged words and 32 x 32 KiB (1 MiB) for pushed broadcasts (about
 * 3 MiB at 16 ranks); teams on one node never do. Collective over the team. Synchronisation: on one
 * node a per-rank phase counter polled through load/store pointers, and for up to 256 B of one-shot
 * data a low-latency exchange whose data carries its own sequence number (no barrier at all);
 * across nodes the signal pads of the scratch object, and for one-shot data the push exchange's
 * counters or flagged words (no barrier either).
 * Returns VSYM_OK, VSYM_ERR_NO_MEMORY, VSYM_ERR_HEAP_EXHAUSTED, VSYM_ERR_INVALID_PARAM (NULL,
 * too few signal channels), VSYM_ERR_BAD_MODE (VSYM_COLL_ALGO names no algorithm). */
VSYM_API vsym_status_t vsym_coll_create(vsym_team_t *team, vsym_coll_t **coll_p);

/* Destroy a handle and the sub-teams it made. Collective over the team. NULL is a no-op. */
VSYM_API vsym_status_t vsym_coll_destroy(vsym_coll_t *coll);

/* The team of a handle. */
VSYM_API vsym_team_t *vsym_coll_team(const vsym_coll_t *coll);

/* Symmetric buffers: size bytes from the symmetric heap, owned by the handle (freed by
 * vsym_coll_buffer_free or at destroy). Collective over the team (same size everywhere). When
 * the src and dst of an all-reduce both lie in such buffers (in place too), at the same offsets on
 * every rank, and every peer is load/store reachable, the all-reduce reads the peers' inputs
 * and partial results where they are (no copy through the scratch): the fastest path for large
 * sizes. The all-gather, the all-to-all and the reduce-scatter read a src in such a buffer (the
 * same offset on every rank; in place the same buffer) straight into dst, one copy (or read) of
 * each byte instead of two, from VSYM_COLL_ZEROCOPY_MIN (auto: 2 MiB of the all-gather's output or
 * the others' src, the all-to-all in place from 32 KiB; on AMD CPUs 4 KiB: where a caller rewrites
 * its src before each call, its peers' reads of it cost more below; src and dst must not overlap
 * but in place; the all-to-all in place swaps blocks between the ranks' buffers). The broadcast
 * into a dst in such a buffer on every rank (any offsets) copies the vector straight from the
 * root's memory: from its src when that lies in such a buffer too, else from its dst after the
 * root's own copy; no copy at the root in place (from VSYM_COLL_ZEROCOPY_MIN where set, auto on
 * AMD CPUs only: from 4 KiB, 32 KiB beyond 8 ranks, 64 KiB with more ranks than cores).
 * Every rank must pass the same kind of buffers (all symmetric or none), else the ranks take
 * different paths and a wait ends in its timeout.
 * Returns allocation errors (VSYM_ERR_HEAP_EXHAUSTED, VSYM_ERR_MISMATCH). */
VSYM_API vsym_status_t vsym_coll_buffer_alloc(vsym_coll_t *coll, size_t size, void **ptr_p);
/* Free a buffer of vsym_coll_buffer_alloc(). Collective over the team. NULL is a no-op;
 * VSYM_ERR_NOT_FOUND for a pointer that is not such a buffer. */
VSYM_API vsym_status_t vsym_coll_buffer_free(vsym_coll_t *coll, void *ptr);

/* Barrier over the handle's team (signals only, no data). */
VSYM_API vsym_status_t vsym_coll_barrier(vsym_coll_t *coll);

/* Broadcast count elements from root's src to every rank's dst (root: src == dst is in place;
 * other ranks ignore src). AUTO on one node: between 2 ranks up to 256 B, beyond up to 1 KiB (2 KiB
 * with more ranks than cores; VSYM_COLL_LL_MAX where set) the low-latency protocol (no barrier: a
 * root may run up to 7 calls ahead of its slowest reader), else ONESHOT through the scratch, or
 * from symmetric dst buffers straight from the root's memory (see vsym_coll_buffer_alloc); with
 * peers over verbs up to VSYM_COLL_NET_BCAST_MAX (16 KiB) the root writes the vector as flagged
 * words to every rank (no barrier: it may run up to 31 calls ahead of its slowest reader), above
 * it ONESHOT, and TWOSHOT above 64 KiB.
 * VSYM_ERR_BAD_RANK for a root outside the team. */
VSYM_API vsym_status_t vsym_coll_broadcast(vsym_coll_t *coll, const void *src, void *dst,
                                           size_t count, vsym_dtype_t dtype, int root,
                                           vsym_coll_algo_t algo);

/* All-gather: dst (team_size x count elements) receives block r from rank r's src (count).
 * Between 2 ranks on one node, from ordinary buffers out of place of VSYM_COLL_PCOPY_MIN bytes
 * a rank (auto: 2 MiB, never on AMD CPUs) until its stores into dst stream, each rank reads the
 * peer's src with a process-to-process copy (as the all-to-all below; both ranks must then pass
 * ordinary buffers out of place). */
VSYM_API vsym_status_t vsym_coll_allgather(vsym_coll_t *coll, const void *src, void *dst,
                                           size_t count, vsym_dtype_t dtype, vsym_coll_algo_t algo);

/* Reduce-scatter: src holds team_size blocks of count elements; dst (count) receives the
 * reduction over all ranks of their block number rank. */
VSYM_API vsym_status_t vsym_coll_reduce_scatter(vsym_coll_t *coll, const void *src, void *dst,
                                                size_t count, vsym_dtype_t dtype, vsym_red_op_t op,
                                                vsym_coll_algo_t algo);

/* All-reduce count elements (any count, not only multiples of the team size). AUTO on one node:
 * ONESHOT for small sizes, then RING (two ranks, and up to 8 ranks from 1 MiB) or TWOSHOT
 * (f16 and bf16: between 2 ranks TWOSHOT above 1 KiB up to 8 KiB, then RING; beyond 2 ranks
 * never RING); between 2 ranks in place from ordinary buffers ONESHOT where that gives RING
 * (f32, f64 and the integers), and beyond 2 ranks sharing cores TWOSHOT from 2 MiB, except on
 * AMD CPUs;
 * src and dst in the handle's symmetric buffers are read and written in place from
 * VSYM_COLL_ZEROCOPY_MIN (auto: 4 KiB, but out of place from 1 MiB and in place beyond 4 ranks
 * from 256 KiB, beyond 8 ranks 1 MiB, not on AMD CPUs: each rank pushes its reduced segment into
 * every rank's dst, which the caller then reads from the pusher's cache); ordinary buffers on one
 * node from VSYM_COLL_PCOPY_MIN (auto: 2 MiB between 2 ranks, 1 MiB beyond where ranks share
 * cores, 4 MiB on 3-4 ranks with a core each, never on more of those nor on AMD CPUs), in place
 * and out of place up to 32 MiB of all ranks' src together, through process-to-process copies
 * where the OS allows them (vsym_team_process_copy): each rank fetches its segment of every
 * peer's src, reduces it and writes the result into every rank's dst (each src byte read once,
 * each dst byte written once; src and dst exposed for the call, every rank passing ordinary
 * buffers alike);
 * across nodes HIER above 4 KiB (ONESHOT below; two ranks over verbs: ONESHOT at every size).
 * Whatever the algorithm, every rank gets bitwise the same result. */
VSYM_API vsym_status_t vsym_coll_allreduce(vsym_coll_t *coll, const void *src, void *dst,
                                           size_t count, vsym_dtype_t dtype, vsym_red_op_t op,
                                           vsym_coll_algo_t algo);

/* All-to-all: block j (count elements) of src goes to rank j, which stores it as block i
 * (the sender's rank) of dst. Both buffers hold team_size x count elements. From ordinary
 * buffers (out of place, every peer on this node, AUTO or ONESHOT) of at least
 * VSYM_COLL_PCOPY_MIN bytes of src (auto: 1 MiB, 4 MiB between 2 ranks, never there on AMD
 * CPUs), every rank reads its blocks straight from the peers' src with process-to-process
 * copies, where the OS allows them (vsym_team_process_copy): one copy of each byte instead of
 * two, for one exposure of src and one barrier per call; every rank must then pass ordinary
 * buffers out of place (as with symmetric buffers, the ranks must agree on the kind of
 * buffers). */
VSYM_API vsym_status_t vsym_coll_alltoall(vsym_coll_t *coll, const void *src, void *dst,
                                          size_t count, vsym_dtype_t dtype, vsym_coll_algo_t algo);

/* The collectives, for vsym_coll_path. */
typedef enum vsym_coll_kind {
    VSYM_COLL_KIND_BROADCAST,
    VSYM_COLL_KIND_ALLGATHER,
    VSYM_COLL_KIND_REDUCE_SCATTER,
    VSYM_COLL_KIND_ALLREDUCE,
    VSYM_COLL_KIND_ALLTOALL,
    VSYM_COLL_KIND_COUNT
} vsym_coll_kind_t;

/* "broadcast", "allgather", "reduce_scatter", "allreduce", "alltoall"; "?" out of range. */
VSYM_API const char *vsym_coll_kind_name(vsym_coll_kind_t kind);

/* The way the collective kind with these arguments would run (the call's own arguments; root
 * only for the broadcast, the op not needed), as a name:
 *   "none" (count 0), "copy" (one rank);
 *   "oneshot" (every rank reads what it needs from every peer after one barrier, or the root's
 *   data for the broadcast), "oneshot-ll" (the low-latency protocol, no barrier),
 *   "oneshot-exchange" (peers over verbs: the push exchange), "oneshot-nodes" (all-reduce
 *   across nodes: the push exchange once per node, then shared inside it), "oneshot-push"
 *   (broadcast with peers over verbs: the root writes flagged words to every rank);
 *   "symmetric-in-place" (all-reduce: the peers' symmetric buffers read and written in place;
 *   all-gather, all-to-all, reduce-scatter: the peers' symmetric src read straight into dst;
 *   broadcast: the root's memory read straight into dst); "process-copy" (all-to-all of
 *   ordinary buffers on one node, all-gather between 2 ranks from VSYM_COLL_PCOPY_MIN:
 *   the peers' src read with process-to-process copies);
 *   "twoshot" (all-reduce, broadcast), "ring" (all-reduce, all-gather, reduce-scatter), "rd"
 *   (all-reduce; all-gather on power-of-two teams), "hier" (all-reduce), "chain" and "tree"
 *   (broadcast: RING and RD).
 * An algorithm that a collective does not have maps as the vsym_coll_algo_t list above says,
 * and the name says what runs (e.g. RD for a reduce-scatter: "oneshot").
 * NULL for arguments the call would reject (see vsym_error_detail). Local: no communication.
 * What benchmarks record as the effective algorithm of AUTO. */
VSYM_API const char *vsym_coll_path(vsym_coll_t *coll, vsym_coll_kind_t kind, const void *src,
                                    const void *dst, size_t count, vsym_dtype_t dtype, int root,
                                    vsym_coll_algo_t algo);

/* Errors of every collective: VSYM_ERR_BAD_DTYPE, VSYM_ERR_BAD_OP (unknown op, or PROD on a
 * floating-point type), VSYM_ERR_BAD_MODE (unknown algorithm), VSYM_ERR_BAD_SIZE (a count whose
 * byte size overflows), VSYM_ERR_INVALID_PARAM (NULL buffer with count > 0), wait and transport
 * errors naming the peer. After an error the handle should be destroyed. */

/* ---- Fused collectives on a TP x DP topology (FlashInfer's MixedCommHandler) -------------- */

/* Topology of the world team of size W = local_size x inter_size (local_size ranks per node):
 *   world_rank = inter_rank * local_size + local_rank
 *   local_rank = local_dp * local_tp_size + local_tp
 *   inter_rank = inter_dp * inter_tp_size + inter_tp
 *   tp_rank    = local_tp + inter_tp * local_tp_size      (tp = local_tp_size * inter_tp_size)
 *   dp_rank    = local_dp + inter_dp * local_dp_size      (dp = local_dp_size * inter_dp_size)
 * A size <= 0 is derived: local_tp_size = local_size / local_dp_size (local_size when both are
 * unset), inter_tp_size = 1 and inter_dp_size = inter_size when both are unset. */
typedef struct vsym_fused_topo {
    int local_tp_size;
    int local_dp_size;
    int inter_tp_size;
    int inter_dp_size;
} vsym_fused_topo_t;

typedef enum vsym_fused_op {
    VSYM_FUSED_ALLREDUCE,               /* tp only: [n] -> [n], sum over all ranks */
    VSYM_FUSED_ALLGATHER,               /* dp only: [n] -> [dp*n], block d from dp_rank d */
    VSYM_FUSED_REDUCESCATTER,           /* dp only: [dp*n] -> [n], block dp_rank summed */
    VSYM_FUSED_ALLREDUCE_ALLGATHER,     /* tp>1, dp>1: [n] -> [dp*n], block d = sum over the
                                           TP group of dp_rank d */
    VSYM_FUSED_REDUCESCATTER_ALLREDUCE, /* tp>1, dp>1: [dp*n] -> [n] = sum over all ranks of
                                           their block dp_rank */
    VSYM_FUSED_OP_COUNT
} vsym_fused_op_t;

typedef enum vsym_fused_mode {
    VSYM_FUSED_AUTO,         /* VSYM_FUSED_MODE, else the autotune table, else a fixed rule */
    VSYM_FUSED_ONESHOT,      /* fewest waits: one exchange, every rank reduces what it needs */
    VSYM_FUSED_TWOSHOT,      /* fewest bytes inside the node: reduce-scatter + all-gather over
                                the local TP ranks (valid when local_tp > 1) */
    VSYM_FUSED_FEWEST_BYTES, /* reduce-scatter + all-gather over the whole TP group, inside and
                                across nodes (valid when inter_tp > 1) */
    VSYM_FUSED_BASELINE,     /* two library collectives: the TP team's, then the DP team's
                                (valid when the TP and DP groups are strided sub-teams) */
    VSYM_FUSED_MODE_COUNT
} vsym_fused_mode_t;

typedef struct vsym_fused vsym_fused_t;

VSYM_API const char *vsym_fused_op_name(vsym_fused_op_t op);
VSYM_API vsym_status_t vsym_fused_op_from_name(const char *name, vsym_fused_op_t *op_p);
VSYM_API const char *vsym_fused_mode_name(vsym_fused_mode_t mode);
VSYM_API vsym_status_t vsym_fused_mode_from_name(const char *name, vsym_fused_mode_t *mode_p);

/* Resolve a topology for world_size ranks with local_size ranks per node (sizes <= 0 derived as
 * above). Pure. VSYM_ERR_BAD_LAYOUT with a detail when the sizes do not multiply out. */
VSYM_API vsym_status_t vsym_fused_topo_resolve(int world_size, int local_size,
                                               const vsym_fused_topo_t *given,
                                               vsym_fused_topo_t *topo_p);

/* The tp_rank and dp_rank of a world rank, and the world rank of (tp_rank, dp_rank). Pure. */
VSYM_API void vsym_fused_topo_ranks(const vsym_fused_topo_t *topo, int world_rank, int *tp_rank_p,
                                    int *dp_rank_p);
VSYM_API int vsym_fused_topo_world_rank(const vsym_fused_topo_t *topo, int tp_rank, int dp_rank);

/* Valid ops and modes of a topology (resolved), as bit masks (1 << op, 1 << mode; AUTO is
 * always valid). Pure. */
VSYM_API unsigned vsym_fused_topo_valid_ops(const vsym_fused_topo_t *topo);
VSYM_API unsigned vsym_fused_topo_valid_modes(const vsym_fused_topo_t *topo);

/* Create a fused-collective handler over the world team of ctx with the given topology (NULL:
 * derived; local_size is the size of the node team). Collective over the world. Loads the
 * autotune table from VSYM_AUTOTUNE_FILE when it has an entry for this topology and host.
 * Returns VSYM_ERR_BAD_LAYOUT (topology), allocation errors. */
VSYM_API vsym_status_t vsym_fused_create(vsym_ctx_t *ctx, const vsym_fused_topo_t *topo,
                                         vsym_fused_t **fused_p);
VSYM_API vsym_status_t vsym_fused_destroy(vsym_fused_t *fused);

/* The resolved topology, and the valid ops and modes of the handler (bit masks as above). */
VSYM_API void vsym_fused_get_topo(const vsym_fused_t *fused, vsym_fused_topo_t *topo_p);
VSYM_API unsigned vsym_fused_valid_ops(const vsym_fused_t *fused);
VSYM_API unsigned vsym_fused_valid_modes(const vsym_fused_t *fused);

/* Symmetric buffers for fused ops: size bytes from the symmetric heap, owned by the handler
 * (freed by vsym_fused_buffer_free or at destroy). Collective over the world (same size
 * everywhere). When in and out of vsym_fused_run both lie in such buffers, at the same offsets
 * on every rank, on one node, the baseline's collectives see the buffers as their own (see
 * vsym_coll_allreduce), and from VSYM_COLL_ZEROCOPY_MIN bytes of input (auto: all-reduce +
 * all-gather from 1 MiB, 256 KiB where ranks share cores; reduce-scatter + all-reduce never; on
 * AMD CPUs any size) the two-shot modes read the inputs and write every rank's output where they
 * are (no copy through the scratch; each rank pushes its sums into the peers' outputs, which a
 * caller then reads from the pusher's cache: below those sizes that read costs more than the
 * copies saved). Returns allocation errors. */
VSYM_API vsym_status_t vsym_fused_buffer_alloc(vsym_fused_t *fused, size_t size, void **ptr_p);
/* Free a buffer of vsym_fused_buffer_alloc(). Collective over the world. NULL is a no-op;
 * VSYM_ERR_NOT_FOUND for a pointer that is not such a buffer. */
VSYM_API vsym_status_t vsym_fused_buffer_free(vsym_fused_t *fused, void *ptr);

/* Element counts of the input and the output of op for n elements per rank (as the table
 * above). */
VSYM_API void vsym_fused_shapes(const vsym_fused_t *fused, vsym_fused_op_t op, size_t n,
                                size_t *in_count_p, size_t *out_count_p);

/* Run op on n elements per rank (in: in_count elements, out: out_count, see
 * vsym_fused_shapes; in and out must not overlap: VSYM_ERR_INVALID_PARAM). dtype f32, f16 or bf16
 * (others too), sum.
 * mode AUTO picks by VSYM_FUSED_MODE, then the autotune table of the buffers' kind by size, else
 * a rule from runs on one node: both pairs in one exchange (at most 8 ranks) up to 256 B of
 * input with a core per rank, and where ranks share cores up to 32 KiB on AMD CPUs (all-reduce +
 * all-gather of ordinary buffers 64 KiB) and 8 KiB on others (1 KiB on symmetric buffers, 2 KiB
 * for reduce-scatter + all-reduce); above, where the two shots run in place on symmetric buffers
 * (vsym_fused_buffer_alloc) the two shots from 4 KiB of input (2 KiB where ranks share cores of
 * other CPUs than AMD's; with a core per rank on at most 8 ranks of those CPUs 512 B, 1 KiB for
 * reduce-scatter + all-reduce, on more 2 KiB; 16 KiB for reduce-scatter + all-reduce on more
 * than 8 ranks of TP 2; reduce-scatter + all-reduce through the baseline from 16 KiB with a
 * core per rank on other CPUs than AMD's); else
 * all-reduce + all-gather through the baseline up to 2 KiB (512 B with a core per rank on at most
 * 8 ranks of other CPUs than AMD's) and in two shots above, reduce-scatter +
 * all-reduce through the baseline up to 512 KiB (128 KiB where ranks share cores of other CPUs
 * than AMD's; at every size beyond 8 ranks) and in two shots above; across nodes and for the single
 * collectives the baseline. The baseline's TP and DP collectives are called with AUTO, so
 * VSYM_COLL_ALGO forces their algorithm as it does any collective's (the fused modes have their own
 * setting, VSYM_FUSED_MODE). Collective over the world. Errors: VSYM_ERR_BAD_OP (op not valid for
 * the topology), VSYM_ERR_BAD_MODE (mode not valid), VSYM_ERR_BAD_DTYPE, VSYM_ERR_BAD_SIZE (n x
 * ranks x element size overflows), VSYM_ERR_INVALID_PARAM, wait and transport errors. */
VSYM_API vsym_status_t vsym_fused_run(vsym_fused_t *fused, vsym_fused_op_t op,
                                      vsym_fused_mode_t mode, const void *in, void *out, size_t n,
                                      vsym_dtype_t dtype);

/* The mode AUTO would use for op on n elements of dtype in ordinary buffers (no
 * communication); _for: on the buffers in and out (symmetric ones have their own table and
 * rule: vsym_fused_run). */
VSYM_API vsym_fused_mode_t vsym_fused_select_mode(const vsym_fused_t *fused, vsym_fused_op_t op,
                                                  size_t n, vsym_dtype_t dtype);
VSYM_API vsym_fused_mode_t vsym_fused_select_mode_for(const vsym_fused_t *fused, vsym_fused_op_t op,
                                                      const void *in, const void *out, size_t n,
                                                      vsym_dtype_t dtype);

/* Autotune: time every valid (op, mode) at power-of-two byte sizes 2^min_log2 .. 2^max_log2
 * of dtype input per rank (iters timed runs each after a warm-up, more for small sizes, in five
 * rounds in which the modes take turns; each round's time is the slowest rank's, so every rank
 * keeps the same choice). The winner per size: the fused mode whose time over the baseline's,
 * round by round, has the smallest median, when that median is at most 0.90; else the baseline
 * (where it is not valid, the mode of the smallest median time). Where the winner is not the mode
 * AUTO's rule takes without a table, five more rounds of the two alone decide: the table keeps the
 * winner only if its median ratio to the rule's mode there is below 1.
 * On one node it tunes twice: on ordinary buffers and on symmetric ones (vsym_fused_buffer_alloc,
 * where the two-shot modes run in place), one table each. Collective over the world. Then
 * vsym_fused_run(AUTO) picks by size from the table of its buffers' kind.
 * Saves the tables to VSYM_AUTOTUNE_FILE when set (rank 0 writes). */
VSYM_API vsym_status_t vsym_fused_autotune(vsym_fused_t *fused, vsym_dtype_t dtype, int min_log2,
                                           int max_log2, int iters);

/* Save or load the autotune table (text; keyed by topology, world size and host). Load returns
 * VSYM_ERR_NOT_FOUND when the file has no table for this key, VSYM_ERR_IO when unreadable. */
VSYM_API vsym_status_t vsym_fused_autotune_save(const vsym_fused_t *fused, const char *path);
VSYM_API vsym_status_t vsym_fused_autotune_load(vsym_fused_t *fused, const char *path);

#ifdef __cplusplus
}
#endif
#endif
