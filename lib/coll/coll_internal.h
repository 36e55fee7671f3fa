/* Internal state of the collectives. Only lib/coll (and its unit tests) include it. */
#ifndef VSYM_COLL_INTERNAL_H
#define VSYM_COLL_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include <vsym/coll.h>
#include "util/util.h"

/* ---- Data types and reductions (dtype.c) --------------------------------------------------- */

float vsym_coll_f16_to_f32(uint16_t h);
uint16_t vsym_coll_f32_to_f16(float f); /* round to nearest even */
float vsym_coll_bf16_to_f32(uint16_t h);
uint16_t vsym_coll_f32_to_bf16(float f); /* round to nearest even */
/* Store v as element i of a buffer of dtype (rounded to nearest even for f16/bf16): how tests and
 * benchmarks fill inputs and references. */
void vsym_coll_store_double(vsym_dtype_t dtype, void *buf, size_t i, double v);

/* Check a dtype / op pair: VSYM_ERR_BAD_DTYPE, VSYM_ERR_BAD_OP (PROD on floating point). */
vsym_status_t vsym_coll_check_dtype_op(vsym_dtype_t dtype, vsym_red_op_t op, const char *what);

/* dst[i] = srcs[0][i] op srcs[1][i] op ... op srcs[nsrc-1][i], left to right, for count
 * elements. f16 and bf16 accumulate all sources in f32 and round once. dst may be srcs[0] or
 * srcs[1] (element-wise alias), never a later source (any source up to VSYM_COLL_RED_SMALL bytes,
 * which take one pass over all sources, other dtypes than f16 and bf16). nsrc >= 1. */
#define VSYM_COLL_RED_SMALL 256
void vsym_coll_reduce(vsym_dtype_t dtype, vsym_red_op_t op, void *dst, const void *const *srcs,
                      int nsrc, size_t count);

/* The same reduction stored into each of ndst destinations (every dsts[k][i] gets the value
 * vsym_coll_reduce would write), in one pass per two destinations. A destination may be one of
 * the sources (the same pointer: in place); otherwise destinations overlap no source and no other
 * destination. */
void vsym_coll_reduce_push(vsym_dtype_t dtype, vsym_red_op_t op, void *const *dsts, int ndst,
                           const void *const *srcs, int nsrc, size_t count);

/* vsym_coll_reduce_push with non-temporal stores into the destinations, for buffers that live
 * in memory (no read of a destination line before it is written); 1 if done, 0 where it cannot
 * run (returns before touching anything: f16 from one source, a CPU without AVX-512 (for the
 * integer dtypes AVX-512DQ), destinations on different offsets modulo 64 bytes or between
 * elements). In place as
 * vsym_coll_reduce_push: every source of a vector is read before the result is stored. */
int vsym_coll_reduce_push_stream(vsym_dtype_t dtype, vsym_red_op_t op, void *const *dsts, int ndst,
                                 const void *const *srcs, int nsrc, size_t count);

/* A reduction stored into this rank's scratch for peers to read: streamed (and fenced) where
 * vsym_util_publish_streams() says so and the CPU has the streaming pass, else
 * vsym_coll_reduce. */
void vsym_coll_reduce_publish(vsym_dtype_t dtype, vsym_red_op_t op, void *dst,
                              const void *const *srcs, int nsrc, size_t count);

/* Whether a kernel storing to st[0..nst) while loading from ld[0..nld) runs from its last element
 * down: a store less than 512 bytes past a load modulo 4 KiB, none as near the other way (4K
 * aliasing; dtype.c says more). */
int vsym_coll_reduce_backward(void *const *st, int nst, const void *const *ld, int nld);
/* Whether vsym_coll_reduce and vsym_coll_reduce_push follow that rule (else always forwards):
 * on AMD CPUs by default; on >= 0 sets it (for tests), -1 asks. */
int vsym_coll_reduce_turning(int on);
/* Whether the bf16 and f16 kernels use 512-bit vectors (on AVX-512BW CPUs): on 0 turns them to
 * the 256-bit or plain versions, 1 back to what the CPU has (for tests), -1 asks. */
int vsym_coll_reduce_wide(int on);

/* Where a temporary of n bytes goes in buf (n + 4096 bytes) so that it lies half a page past src
 * modulo 4 KiB: a kernel writing it while reading src, or sources at src's offset, then meets
 * no 4K aliasing in either direction. */
void *vsym_coll_unaliased(void *buf, const void *src);

/* The all-reduce algorithm AUTO resolves to for a team of n ranks and bytes per rank (half:
 * f16 or bf16), on several nodes or one, with every rank load/store reachable or not. Pure. */
vsym_coll_algo_t vsym_coll_allreduce_rule(int n, size_t bytes, int half, int multi_node,
                                          int all_direct);

/* ---- Handle (coll.c) ---------------------------------------------------------------------- */

/* Signal-pad channels of the scratch object. */
enum {
    COLL_CH_BARRIER = 0, /* barrier-model phases and vsym_coll_barrier */
    COLL_CH_READY = 1,   /* pairwise model: 1 + parity, owner -> reader: data published */
    COLL_CH_DONE = 3,    /* pairwise model: 3 + parity, reader -> owner: data consumed */
    COLL_CHANNELS = 5
};

/* A symmetric buffer of vsym_coll_buffer_alloc(). */
typedef struct vsym_coll_buf {
    vsym_obj_t *obj;
    char *base;
    size_t size;
    uint64_t serial; /* the handle's count of buffers made, at this one (the same on every rank) */
    char **peer;     /* per team rank: load/store pointer, or NULL */
    struct vsym_coll_buf *next;
} vsym_coll_buf_t;

/* The symmetric buffer (owned or shared) holding [p, p + len), or NULL. */
vsym_coll_buf_t *vsym_coll_find_buf(const vsym_coll_t *c, const void *p, size_t len);
/* Let sub find b (a buffer of a handle on a wider team) as its own: a view, not owned, whose
 * rank r is rank ranks[r] of b's team; removed by vsym_coll_buffer_free(sub, b->base). Local. */
vsym_status_t vsym_coll_buf_share(vsym_coll_t *sub, const vsym_coll_buf_t *b, const int *ranks);

struct vsym_coll {
    vsym_team_t *team;
    vsym_ctx_t *ctx;
    int me;
    int n;
    size_t chunk;        /* bytes of each of the four scratch regions */
    vsym_obj_t *scratch; /* [barrier 0][barrier 1][pairwise 0][pairwise 1] */
    char *base;          /* this rank's scratch */
    char **peer;         /* per team rank: load/store pointer to its scratch, or NULL */
    int all_direct;      /* every rank of the team is load/store reachable */
    uint64_t bar_phase;  /* barrier-model phases so far (parity picks the region) */
    uint64_t pw_phase;   /* pairwise-model phases so far */
    uint64_t rtt_bytes;  /* bytes of the calls since the line round trip was last timed (0: due;
                            rtt_probe) */
    uint64_t rtt_seq;    /* round trips timed so far */
    uint64_t rtt_last; /* ranks sharing cores: when rank 0 last timed one (vsym_coll_rtt_shared) */
    uint64_t rtt_wait; /* and how long it waits before the next (ns) */
    uint64_t rtt_tries;  /* and how many it has run (tests) */
    uint64_t rtt_fake;   /* tests: rank 0 takes its round trips as this many ns (0: timed) */
    int cores_far; /* the cores' state as rank 0's last round trip found it and told every rank
                    * at the same call (rtt_tell: 2 ranks with a core each, or ranks sharing
                    * cores), so that all choose the same path by it from the next call on: -1
                    * unknown, 0 near, 1 far */
    int *pend[2];        /* pairwise: readers of the last phase of each parity, not yet done */
    int npend[2];
    char *tmp; /* landing area for gets from peers without a pointer (n x chunk) */
    double timeout;
    vsym_coll_algo_t env_algo; /* VSYM_COLL_ALGO, read once at create */
    /* Barrier model on shm: each rank's phase counter at offset 4 x chunk of its scratch,
     * stored with release and polled by peers through their pointers (no consume step). */
    uint64_t *flag;   /* this rank's counter */
    int fast_spin;    /* polls before the backoff starts (0 when oversubscribed) */
    size_t ll_max;    /* largest input per rank sent with the LL protocol (0: never) */
    size_t bc_ll_max; /* largest broadcast sent with it (0: never) */
    size_t blk_ll_max; /* largest all-gather (a rank's), reduce-scatter, all-to-all (src) */
    size_t zc_min;     /* smallest collective read in place from symmetric buffers */
    size_t ar_zc_min[2]; /* the all-reduce's, out of place and in place (coll.c, ar_zc_rule) */
    size_t ar_zc_far_min; /* the all-reduce's out of place while cores_far is 1 */
    int zc_auto;         /* VSYM_COLL_ZEROCOPY_MIN auto (not set): ar_zc_min and the fused
                          * two-shot modes' by rule */
    size_t pcopy_min; /* smallest all-to-all of ordinary buffers read with process-to-process
                       * copies (0: never) */
    size_t ag_pcopy_min;  /* the same for the all-gather between 2 ranks, bytes per rank (0) */
    size_t bc_stream_min; /* smallest broadcast whose publishes into the scratch stream
                           * (non-temporal stores; SIZE_MAX: never) */
    size_t ag_stream_min; /* the same for the all-gather, bytes per rank */
    /* Hierarchical algorithms: sub-teams made at first use (0 unknown, 1 ready, -1 irregular). */
    vsym_coll_buf_t *bufs; /* symmetric buffers of the handle, and views of wider ones */
    uint64_t buf_made;     /* buffers made (and views shared) so far: the next one's serial */
    uint64_t ll_seq;       /* low-latency (LL) calls so far */
    uint64_t ll_min_done;  /* every peer has finished at least this many LL calls */
    size_t ll_lines_last;  /* lines the last LL publication of this rank took */
    size_t ll_next_max;    /* the broadcast's LL bytes whose next-call lines a reader asks for */
    size_t xch_max;        /* largest block per peer of the push exchange (0: none) */
    vsym_obj_t *xch;       /* its landing slots, then its counters; made at first use */
    char *xch_base;        /* this rank's memory of xch */
    uint64_t xch_seq;      /* push exchanges so far */
    uint64_t xch_adds;     /* those that added to the counters (not sent as flagged words) */
    size_t xll_max;        /* largest block per peer sent as flagged words (0: never) */
    char *xll_buf;         /* n x xll_max: peers' unpacked blocks; then 2 x the larger limit
                            * + 8: words to put */
    size_t push_max;       /* largest broadcast pushed as flagged words (0: never) */
    uint64_t push_seq;     /* broadcasts pushed as flagged words so far */
    uint64_t *push_known;  /* per rank: the pushed broadcasts it had finished when last read */
    char *ll_tmp;          /* n x VSYM_COLL_LL_MAX: peers' unpacked LL data */
    char *push_tmp;        /* COLL_PUSH_BLOCK + 4096 bytes: a block reduced before its pushes */
    size_t ar_pcopy_min;   /* the all-reduce's process-copy limit (VSYM_COLL_PCOPY_MIN; 0: never) */
    char *pcopy_tmp;       /* n x COLL_AR_PCOPY_BLOCK: peers' inputs fetched by ar_pcopy */
    int hier_state;
    int local_size;
    vsym_team_t *node_team;
    vsym_team_t *inter_team;
    vsym_coll_t *node_coll;
    vsym_coll_t *inter_coll;
};

/* ---- Synchronisation (sync.c) ------------------------------------------------------------ */

/* Wait until the counter at w (rank r's, read through its mapping) reaches want; what names the
 * wait in the timeout's error, with the rank it waited for. */
vsym_status_t vsym_coll_counter_wait(vsym_coll_t *c, const uint64_t *w, uint64_t want, int r,
                                     const char *what);

/* Barrier model: every rank writes its region of the current phase, the team synchronises
 * once on the barrier channel, every rank reads peers' regions. Two regions used in turn make
 * this safe without a second barrier: a region is written again two phases later, after every
 * rank has entered the barrier of the phase between, hence finished reading. */
char *vsym_coll_bar_buf(vsym_coll_t *c);
vsym_status_t vsym_coll_bar_sync(vsym_coll_t *c);
/* A pointer to len bytes at off of rank r's region of the current phase: direct, or fetched
 * into tmp slot r. */
vsym_status_t vsym_coll_bar_peer(vsym_coll_t *c, int r, size_t off, size_t len, const char **ptr_p);
void vsym_coll_bar_next(vsym_coll_t *c);
/* The all-gather half of a two-shot step: segment r of a chunk of m elements of es bytes is read
 * from rank r's region of the current phase into dst at element off + its start (streamed where
 * stream is set: dst_streams). */
vsym_status_t vsym_coll_bar_gather(vsym_coll_t *c, int n, char *dst, size_t off, size_t m,
                                   size_t es, int stream);

/* Low-latency protocol for small exchanges on shm: every 56 bytes of data travel in a 64-byte
 * line whose last word, stored after them with release order, is the call's sequence number, so
 * a reader knows each line has arrived without any barrier. COLL_LL_SLOTS rotating regions per
 * rank: a rank writes the region of call seq again at call seq + COLL_LL_SLOTS, once every rank has
 * finished call seq (its done counter, set at the end of every LL call). After an all-to-all read
 * (all-reduce, fused one-shot) at call s the writer knows that of every peer up to s - 1 without
 * looking (each published s after finishing s - 1); a broadcast's root learns nothing, so after
 * broadcasts it reads the counters, about once every COLL_LL_SLOTS - 1 calls, and may run that far
 * ahead of its slowest reader (vsym_coll_ll_begin). */
#define COLL_LL_SLOTS 8
#define VSYM_COLL_LL_MAX 16384 /* input bytes per rank */
#define COLL_PUSH_BLOCK 65536  /* bytes reduced per block by the pushing all-reduce */
/* and from this many bytes a rank, out of place, it stores with non-temporal stores where the
 * team's cores are far (ar_zerocopy) */
#define COLL_ZC_FAR_STREAM_MIN ((size_t)1 << 20)
/* Whether the all-reduce of bytes a rank from n ranks' symmetric buffers stores its results with
 * non-temporal stores (ar_zerocopy says when). */
int vsym_coll_zc_streams(int n, size_t bytes, int in_place);
#define COLL_BC_STREAM_MIN 32768  /* VSYM_COLL_STREAM_MIN auto: the broadcast's */
#define COLL_AG_STREAM_MIN 4096   /* and the all-gather's (bytes per rank; ranks sharing cores) */
/* VSYM_COLL_PCOPY_MIN auto: the all-to-all's (bytes of src) beyond 2 ranks; between 2 ranks
 * the all-to-all's (bytes of src) and the all-gather's (bytes per rank), never on AMD CPUs
 * (pcopy_allowed, ag_pcopy_allowed in coll.c) */
#define COLL_PCOPY_MIN 1048576
#define COLL_PCOPY_MIN_2 ((size_t)4 << 20)
#define COLL_AG_PCOPY_MIN_2 ((size_t)2 << 20)
/* and the all-reduce's (bytes a rank: beyond 2 ranks sharing cores, between 2 ranks, 3-4 ranks with
 * a core each), out of place up to COLL_AR_PCOPY_OOP_MAX bytes of all ranks' src together
 * (ar_pcopy_allowed in coll.c) */
#define COLL_AR_PCOPY_MIN ((size_t)1 << 20)
#define COLL_AR_PCOPY_MIN_2 ((size_t)2 << 20)
#define COLL_AR_PCOPY_MIN_OWN ((size_t)4 << 20) /* 3-4 ranks with a core each */
#define COLL_AR_PCOPY_OOP_MAX ((size_t)32 << 20)
/* bytes of each peer's input the all-reduce's process-to-process path fetches at a time (at most
 * the scratch's chunk): 2 ranks 256 KiB, more 128 KiB (ar_pcopy) */
#define COLL_AR_PCOPY_BLOCK(n) ((n) == 2 ? (size_t)262144 : (size_t)131072)
/* The all-reduce beyond 2 ranks sharing cores: two-shot instead of the ring from this many bytes
 * (ar_shared_twoshot in coll.c) */
#define COLL_SHARED_TWOSHOT_MIN ((size_t)2 << 20)
/* Point the publish probes of this process at the team's record of the last far probe (rank 0's
 * scratch; none where a peer is not mapped): at the start of every collective call. */
void vsym_coll_publish_share(const vsym_coll_t *c);
/* VSYM_COLL_ZEROCOPY_MIN for the fused ops (coll.c, beside the collectives' own rules): the
 * smallest input in bytes of all-reduce + all-gather (ar_ag) or reduce-scatter + all-reduce whose
 * two-shot modes run in place on symmetric buffers (SIZE_MAX: never). */
size_t vsym_coll_fused_zc_min(const vsym_coll_t *c, int ar_ag);
/* The fused calls of f whose two-shot modes ran in place so far (fused.c; tests). */
uint64_t vsym_fused_in_place_runs(const vsym_fused_t *f);
/* The team's last line round trip in ns: between ranks 0 and 1 (rtt_probe in coll.c), or where
 * ranks share cores between rank 0's CPU and another (vsym_coll_rtt_shared); 0: none yet, or not
 * measured here: VSYM_PUBLISH_STREAM not auto, a peer over verbs. */
uint64_t vsym_coll_line_rtt(const vsym_coll_t *c);
/* Where ranks share cores and VSYM_PUBLISH_STREAM auto decides: before a call that publishes
 * bytes through the scratch, team rank 0 times the line round trip against a thread of its own
 * (vsym_util_thread_line_rtt) at most once a second (10 ms after one whose thread did not run,
 * then 20, 40, ...) and stores it in the team's record; the other ranks do nothing. No-op
 * elsewhere. */
void vsym_coll_rtt_shared(vsym_coll_t *c, size_t bytes);
int vsym_coll_ll_usable(const vsym_coll_t *c, size_t bytes);
/* Whether a broadcast of bytes takes it (its own limit, c->bc_ll_max). */
int vsym_coll_bc_ll_usable(const vsym_coll_t *c, size_t bytes);
/* Whether an all-gather of bytes a rank, or a reduce-scatter or all-to-all of bytes of src, takes
 * it (c->blk_ll_max). */
int vsym_coll_blk_ll_usable(const vsym_coll_t *c, size_t bytes);
/* Start an LL call on every rank: *seq_p is its sequence number; publishes: whether this rank
 * will publish in it (then it waits, when needed, for the ranks still reading the region). */
vsym_status_t vsym_coll_ll_begin(vsym_coll_t *c, int publishes, uint64_t *seq_p);
/* A reader of rank r's publication of len bytes in call seq, which r alone publishes (the
 * broadcast): between 2 ranks, up to c->ll_next_max bytes, ask for r's lines of call seq + 1 now.
 */
void vsym_coll_ll_prefetch_next(const vsym_coll_t *c, int r, uint64_t seq, size_t len);
/* The bytes of a broadcast up to which vsym_coll_ll_prefetch_next asks for the lines (the
 * handle's ll_next_max): 2 lines on AMD CPUs, 5 on others. */
size_t vsym_coll_ll_next_max(void);
/* End LL call seq on this rank (every read done); all_read: every rank read every rank's data. */
void vsym_coll_ll_end(vsym_coll_t *c, uint64_t seq, int all_read);
/* Publish len bytes of src for call seq (from vsym_coll_ll_begin). */
void vsym_coll_ll_publish(vsym_coll_t *c, uint64_t seq, const void *src, size_t len);
/* Wait for bytes [off, off + len) of the publication of total bytes of call seq of rank peer, or
 * of every rank but this one (peer -1), and unpack them into c->ll_tmp + r * LL_MAX for each rank
 * r (whole lines of 56 bytes around them, at the same offsets). */
vsym_status_t vsym_coll_ll_fetch(vsym_coll_t *c, int peer, uint64_t seq, size_t total, size_t off,
                                 size_t len);
/* A one-shot of count elements of es bytes through the LL protocol: every rank publishes its src
 * and reads, with gather, the whole src of every peer, else block me of it (blocks of count
 * elements); dtype VSYM_DTYPE_COUNT places what rank r sent at block r of dst (all-gather,
 * all-to-all), another dtype reduces them with op in rank order into dst (all-reduce,
 * reduce-scatter). */
vsym_status_t vsym_coll_ll_blocks(vsym_coll_t *c, int gather, const char *src, char *dst,
                                  size_t count, size_t es, vsym_dtype_t dtype, vsym_red_op_t op);

/* Push exchange, for teams with peers out of load/store reach (verbs): every rank puts blk[r]
 * (len bytes, len <= c->xch_max) into rank r's landing slot for it, the put carrying a counter
 * add, and waits for every peer's counter; no barrier, one network crossing. Up to
 * VSYM_COLL_NET_LL_MAX the block goes instead as 8-byte words of 4 data bytes and a flag of the
 * exchange (one write per peer, no atomic; the reader checks every word), which relies on a
 * transport placing each aligned 8-byte word whole or in ascending address order (NICs write
 * whole PCIe words; Soft-RoCE copies with the kernel's memcpy). got[r] then points at rank r's
 * block for this rank (got[me] at a copy of blk[me] in this rank's memory, so that outputs may
 * overlap the inputs). Two rotating sets of slots, safe because every rank sends to
 * every other in every exchange: a rank writes a set again two exchanges later, after it has
 * received every peer's data of the exchange between, which each peer sent only once it had
 * finished reading. The blocks may be rewritten once it returns. registered: the blocks lie in
 * registered memory (symmetric buffers); above the size a transport stages
 * (vsym_team_put_staged_max) their puts go non-blocking, with one quiet. */
vsym_status_t vsym_coll_xch(vsym_coll_t *c, const char *const *blk, size_t len, int registered,
                            const char **got);
/* The same one-shot as vsym_coll_ll_blocks through push exchanges (peers over verbs), in chunks
 * of c->xch_max bytes per peer: blocks 0 sends every rank the whole vector, 1 block r to rank r. */
vsym_status_t vsym_coll_xch_blocks(vsym_coll_t *c, const char *src, char *dst, size_t count,
                                   int blocks, size_t es, vsym_dtype_t dtype, vsym_red_op_t op);
/* A broadcast of len bytes (up to c->push_max) from root pushed as flagged words into every
 * other rank's slot of the call; no barrier. */
vsym_status_t vsym_coll_push_bcast(vsym_coll_t *c, const char *src, char *dst, size_t len,
                                   int root);

/* Pairwise model (ring, recursive doubling, trees): the owner of a region tells its readers it
 * holds their data (ready), each reader tells it back when consumed (done); the owner waits for
 * done only when it is about to write that region again, two phases later. */
/* The parity of the current phase (which of the two regions it uses). */
int vsym_coll_pw_parity(const vsym_coll_t *c);
/* Wait until every reader of the last phase of this parity has consumed it. */
vsym_status_t vsym_coll_pw_drain(vsym_coll_t *c, int parity);
/* Make the region of a parity writable, and return it. */
vsym_status_t vsym_coll_pw_acquire(vsym_coll_t *c, int parity, char **buf_p);
/* Tell readers that the region of the current phase holds their data. */
vsym_status_t vsym_coll_pw_publish(vsym_coll_t *c, const int *readers, int nr);
/* Wait for owner's data of the current phase; a pointer to len bytes at off of it (direct, or
 * fetched into c->tmp). */
vsym_status_t vsym_coll_pw_read(vsym_coll_t *c, int owner, size_t off, size_t len,
                                const char **ptr_p);
/* Tell owner its data of the current phase is consumed. */
vsym_status_t vsym_coll_pw_done(vsym_coll_t *c, int owner);
void vsym_coll_pw_next(vsym_coll_t *c);

/* ---- The path of a call (coll.c) ---------------------------------------------------------- */

/* The ways a collective runs: what vsym_coll_path names, and what each collective dispatches
 * on (the two cannot drift). */
typedef enum coll_path {
    P_NONE,
    P_COPY,
    P_ZEROCOPY,
    P_LL,
    P_ONESHOT,
    P_XCH,
    P_NODES,
    P_TWOSHOT,
    P_RING,
    P_RD,
    P_HIER,
    P_CHAIN,
    P_TREE,
    P_PUSH,
    P_PCOPY,
} coll_path_t;

/* The start of every collective: check the arguments (op_p: the reduction op, NULL for the
 * collectives that do not reduce), plan the path, and run the trivial ones (one rank copies).
 * *path_p is P_NONE when nothing is left to do; *sb_p and *db_p the symmetric buffers of src and
 * dst where the path reads or writes them in place. */
vsym_status_t vsym_coll_begin(vsym_coll_t *c, vsym_coll_kind_t kind, const void *src, void *dst,
                              size_t count, vsym_dtype_t dtype, const vsym_red_op_t *op_p, int root,
                              vsym_coll_algo_t algo, coll_path_t *path_p, vsym_coll_buf_t **sb_p,
                              vsym_coll_buf_t **db_p);
/* Whether the team is a regular node-major layout over several nodes of more than one rank
 * each (what the two-level algorithms need). Local. */
int vsym_coll_hier_regular(const vsym_coll_t *c);
/* Make the sub-teams of the two-level algorithms (the ranks of each node, and those of equal
 * local rank across nodes), at first use. Collective over the team. */
vsym_status_t vsym_coll_hier_setup(vsym_coll_t *c);

/* ---- The scratch's layout ----------------------------------------------------------------- */

/* A scratch holds four regions of c->chunk bytes, the barrier counter's line, the LL slots
 * (COLL_LL_BYTES) and the LL done counter's line. base: a rank's memory of it. */
#define COLL_LL_BYTES (COLL_LL_SLOTS * 2 * (size_t)VSYM_COLL_LL_MAX)
/* The offset in a rank's scratch of its barrier phase counter (c->flag in its own). */
static inline size_t bar_counter_off(const vsym_coll_t *c)
{
    return 4 * c->chunk;
}

static inline size_t ll_slots_off(const vsym_coll_t *c)
{
    return bar_counter_off(c) + 64;
}

static inline char *ll_slots(const vsym_coll_t *c, char *base)
{
    return base + ll_slots_off(c);
}

/* The offset in a rank's scratch of its count of LL calls read to the end. */
static inline size_t ll_done_off(const vsym_coll_t *c)
{
    return ll_slots_off(c) + COLL_LL_BYTES;
}

static inline uint64_t *ll_done(const vsym_coll_t *c, char *base)
{
    return (uint64_t *)(void *)(base + ll_done_off(c));
}

/* The line after: in rank 0's scratch, the team's record of the last far publish probe and of
 * the last line round trip between team ranks 0 and 1 (vsym_util_publish_share). */
static inline uint64_t *far_word(const vsym_coll_t *c, char *base)
{
    return ll_done(c, base) + 8;
}

/* The line after that: a rank's word of the round trip's ping-pong (rtt_probe), then rank 0's
 * verdict for the other ranks (rtt_tell). */
static inline uint64_t *ping_word(const vsym_coll_t *c, char *base)
{
    return far_word(c, base) + 8;
}

/* ---- Helpers of the collectives ----------------------------------------------------------- */

/* Element offset of segment k when m elements are split into n segments: m x k / n, in 64 bits
 * where m fits in 32 (k <= n < 2^31), else in 128 (a call of the compiler's __udivti3: 0.5% of
 * the samples of 2-rank 8-byte fused calls). */
static inline size_t seg_lo(size_t m, int n, int k)
{
    if (m <= UINT32_MAX) return m * (unsigned)k / (unsigned)n;
    return (size_t)(((unsigned __int128)m * (unsigned)k) / (unsigned)n);
}

static inline vsym_status_t bar_peer_v(vsym_coll_t *c, int r, size_t off, size_t len,
                                       const void **ptr_p)
{
    const char *p;
    VSYM_TRY(vsym_coll_bar_peer(c, r, off, len, &p));
    *ptr_p = p;
    return VSYM_OK;
}

static inline size_t min_sz(size_t a, size_t b)
{
    return a < b ? a : b;
}

static inline void copy_bytes(void *dst, const void *src, size_t len)
{
    if (dst != src && len > 0) memmove(dst, src, len);
}

/* Whether [a, a + alen) and [b, b + blen) do not overlap. */
static inline int apart(const void *a, size_t alen, const void *b, size_t blen)
{
    return (const char *)a + alen <= (const char *)b || (const char *)b + blen <= (const char *)a;
}

/* Whether a call stores into the caller's dst with non-temporal stores: where the ranks' src and
 * dst together (whole bytes, over the team) reach twice the streaming threshold
 * (VSYM_NT_THRESHOLD; with auto, the whole last-level cache), a call passes through
 * more than the cache holds, dst is no longer there when the next call writes it, and an
 * ordinary store into a line not in cache reads it first. Below that the lines of dst are
 * still in the cache: 2-core AMD host, launches taking turns, 2 ranks out of place, streaming
 * from the threshold made the 4 MiB all-reduce (16 MiB over the ranks) and the 8 MiB
 * reduce-scatter (24 MiB) 1.2x slower; from twice it, medians of three launches against the
 * stores before, all-reduce 0.67-0.90 at 8-64 MiB, all-gather 0.65-0.74 and broadcast
 * 0.65-0.78 at 16-64 MiB, reduce-scatter 0.91-1.02; 16-core Intel guest at 16 ranks 0.70-0.87,
 * reduce-scatter 1.02 (results/coll/dev-2core-zen4-2026-11-27-stop33 and device-16core-...).
 * The same rule for the copies out of the peers' symmetric buffers (gather_zerocopy,
 * bc_zerocopy): 2-core AMD host, launches taking turns, medians of three rounds, 16-64 MiB
 * 0.53-0.71 of the time at 2 and 4 ranks (all-gather, all-to-all, broadcast); at 8 MiB, where the
 * ranks' buffers fill the L3, 0.60-1.25 in five rounds (results/coll/dev-2core-zen4-2026-11-27-
 * stop34). Stop 34 found them 0.9-2.0x slower streamed on the 16-core Intel guest and kept them
 * to AMD CPUs, but its streaming copy then fetched ahead with prefetchnta, which made it 2.3x
 * slower on Intel's (vsym_util_copy_stream). Without it, stop 50, where the rule streams (64 MiB
 * at 8 and 16 ranks there, six rounds): the all-gather 0.50-0.68 of the time, the broadcast
 * 0.42-0.88 (in place too), the all-to-all 0.70-0.94 at 16 ranks and 1.02-1.18 at 8; on the
 * 2-vCPU Intel guest, 2 ranks, out of place, 32-64 MiB, 0.78-0.88 in four rounds against the
 * build before (results/coll/device-16core-2026-11-29-stop50, dev-2core-intel-2026-11-29-stop50).
 * Not where src and dst overlap (in place, the lines of dst were read as src moments before:
 * streaming them was 1.10-1.16x slower). The call fences once before it returns (dst_fence). */
static inline int dst_streams(int overlap, size_t whole)
{
    return !overlap && vsym_util_copy_streams(whole / 2);
}

/* A copy into dst, streamed where dst_streams said so. */
static inline void dst_copy(void *dst, const void *src, size_t len, int stream)
{
    if (stream)
        vsym_util_copy_stream(dst, src, len);
    else
        copy_bytes(dst, src, len);
}

/* The sources reduced into dst, streamed where dst_streams said so (the streaming pass where
 * the CPU has it for the dtype, else the ordinary kernel). */
static inline void dst_reduce(vsym_dtype_t dtype, vsym_red_op_t op, void *dst,
                              const void *const *srcs, int n, size_t count, int stream)
{
    void *d[1] = {dst};
    if (stream && vsym_coll_reduce_push_stream(dtype, op, d, 1, srcs, n, count)) return;
    vsym_coll_reduce(dtype, op, dst, srcs, n, count);
}

static inline void dst_fence(int stream)
{
    if (stream) vsym_util_copy_fence();
}

/* A rank's copy of what it publishes into its scratch for readers that copy all of it out
 * (broadcast, all-gather): streamed (non-temporal stores, fenced before the barrier tells the
 * readers) when stream is set, which leaves the lines in memory rather than modified in this
 * core's cache, so readers read memory instead of snooping it. Faster on the AMD host measured,
 * slower on the Intel one (stream_min). */
static inline void stream_publish(void *dst, const void *src, size_t len, int stream)
{
    if (!stream) {
        vsym_util_copy_publish(dst, src, len);
        return;
    }
    vsym_util_copy_stream(dst, src, len);
    vsym_util_copy_fence();
}

/* ---- Fused topology helpers (fused.c) ----------------------------------------------------- */

/* (tp_rank, dp_rank) ranks of every world rank, computed from the formulas. */
int vsym_coll_fused_world_rank(const vsym_fused_topo_t *t, int tp_rank, int dp_rank);
/* Whether the handler has a tuned table for dtype. */
int vsym_coll_fused_tuned(const vsym_fused_t *f, vsym_dtype_t dtype);
/* The mode the handle's last AUTO call of vsym_fused_run resolved to and remembers, -1 when it
 * remembers none (tests). */
int vsym_coll_fused_last_auto(const vsym_fused_t *f);

/* ---- Autotune table (autotune.c) ---------------------------------------------------------- */

#define VSYM_TUNE_MAX_LOG2 40

typedef struct vsym_tune_table {
    char key[256]; /* topology, world size, host, dtype */
    signed char mode[VSYM_FUSED_OP_COUNT][VSYM_TUNE_MAX_LOG2 + 1]; /* -1: not tuned */
    float time_us[VSYM_FUSED_OP_COUNT][VSYM_TUNE_MAX_LOG2 + 1];
} vsym_tune_table_t;

void vsym_coll_tune_init(vsym_tune_table_t *t, const char *key);
/* The bucket of a size: round(log2(bytes)), clamped to [0, VSYM_TUNE_MAX_LOG2]. */
int vsym_coll_tune_bucket(size_t bytes);
/* The tuned mode for op at bytes: the entry of the nearest tuned bucket; -1 when none. */
int vsym_coll_tune_lookup(const vsym_tune_table_t *t, vsym_fused_op_t op, size_t bytes);
vsym_status_t vsym_coll_tune_save(const vsym_tune_table_t *t, const char *path);
/* Interleaved rounds of the autotune's timing of each (op, size). */
#define VSYM_TUNE_ROUNDS 5
/* The largest median ratio of a fused mode's time to the baseline's that the autotune takes. */
#define VSYM_TUNE_MARGIN 0.90
/* The autotune's choice among the valid modes (bit mask, 1 << mode) from their times rt[mode][q]
 * in round q (the modes timed in turns, seconds apart): the fused mode whose time over the
 * baseline's, round by round, has the smallest median, when that median is at most
 * VSYM_TUNE_MARGIN; else
 * the baseline; without a valid baseline, the mode of the smallest median time. *time_p: the
 * chosen mode's median time. */
int vsym_coll_tune_pick(double rt[][VSYM_TUNE_ROUNDS], unsigned valid_modes, double *time_p);
/* The median of mode's times over the rounds. */
double vsym_coll_tune_median(double rt[][VSYM_TUNE_ROUNDS], int mode);
/* The autotune's second look where vsym_coll_tune_pick took a mode other than ref (the one AUTO's
 * rule takes without a table): from new rounds of those two alone, 1 (keep mode) when its time
 * over ref's, round by round, has a median below VSYM_TUNE_CONFIRM, else 0 (take ref). */
#define VSYM_TUNE_CONFIRM 1.0
int vsym_coll_tune_confirm(double rt[][VSYM_TUNE_ROUNDS], int mode, int ref);
/* Fill t from the table of path whose key equals t->key. */
vsym_status_t vsym_coll_tune_load(vsym_tune_table_t *t, const char *path);

#endif
