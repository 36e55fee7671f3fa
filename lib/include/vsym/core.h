/* vsym core: context, teams, symmetric objects, one-sided RMA, atomics, signals and waits.
 *
 * Model. A job of N processes (ranks) is started by a PMIx launcher (mpirun, prterun,
 * srun --mpi=pmix). vsym_init() joins the job; without a launcher the process is a job of one.
 * Ranks are grouped in teams (the world, the ranks of one node, strided sub-teams). A symmetric
 * object is memory that every rank of a team contributes (the same size everywhere) and that
 * every rank of the team can read and write one-sidedly: over shared memory for ranks on the
 * same node, over RDMA verbs otherwise. Ranks in RMA calls are ranks of the object's team.
 *
 * Completion. vsym_put() returns when the source buffer may be reused; the data is visible at
 * the target after vsym_quiet(). vsym_fence() orders earlier puts to a peer before later ones.
 * vsym_get() returns with the data in the destination buffer. The _nbi forms return at once;
 * their buffers may be touched only after vsym_quiet().
 *
 * Signal pads. Every symmetric object has a signal pad of team_size x channels slots (64-bit).
 * vsym_signal_put(dst, ch) moves the slot [ch][me] on dst from 0 to 1 (and waits while it is
 * still 1: back-pressure, a signal is never lost or doubled); vsym_signal_wait(src, ch) moves the
 * own slot [ch][src] from 1 to 0. After every completed synchronisation the pad is all zeros.
 * Independent synchronisations use different channels.
 *
 * Waits. Every call that waits for a peer takes a timeout in seconds: a value <= 0 means the
 * VSYM_TIMEOUT setting. On expiry it fails with VSYM_ERR_TIMED_OUT, and vsym_error_detail()
 * names the peer it waited for. Waits spin briefly, then yield, then sleep, so that ranks that
 * outnumber the cores do not starve each other.
 *
 * Threads. A context may be used by one thread at a time (the caller serialises).
 */
#ifndef VSYM_CORE_H
#define VSYM_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <vsym/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vsym_ctx vsym_ctx_t;
typedef struct vsym_team vsym_team_t;
typedef struct vsym_obj vsym_obj_t;

/* ---- Context ------------------------------------------------------------------------------ */

/* Join the job: bootstrap through PMIx (or run as a job of one without a launcher), create the
 * symmetric heap (VSYM_HEAP_SIZE), connect the transports (shm to ranks of the same node, verbs
 * to the others, see VSYM_TRANSPORT and VSYM_VIRTUAL_NODES), and create the world and node
 * teams. Collective over all ranks of the job.
 * Returns VSYM_OK, VSYM_ERR_BOOTSTRAP, VSYM_ERR_NO_MEMORY, VSYM_ERR_TRANSPORT, VSYM_ERR_NO_DEVICE,
 * VSYM_ERR_INVALID_PARAM (NULL ctx_p; a malformed setting, or one out of its range or at odds with
 * the job: VSYM_SIGNAL_CHANNELS outside 1..1024, VSYM_TRANSPORT=shm across nodes, a GID index
 * with no GID), VSYM_ERR_MISMATCH (the ranks' VSYM_HEAP_SIZE or VSYM_INTERNAL_SIZE differ),
 * VSYM_ERR_UNSUPPORTED (verbs wanted in a build without them). */
VSYM_API vsym_status_t vsym_init(vsym_ctx_t **ctx_p);

/* Leave the job: a barrier over the world, then release every team, object and transport
 * resource still held. Collective. Shared-memory segments are gone after this call (and are
 * never visible in /dev/shm at all). */
VSYM_API vsym_status_t vsym_finalize(vsym_ctx_t *ctx);

/* Wait until every put, get and atomic issued by this context is complete at its target. */
VSYM_API vsym_status_t vsym_quiet(vsym_ctx_t *ctx);

/* Order: puts issued to any peer before the fence are visible before puts issued after it. */
VSYM_API vsym_status_t vsym_fence(vsym_ctx_t *ctx);

/* ---- Teams -------------------------------------------------------------------------------- */

/* The team of all ranks, and the team of the ranks on this rank's node (a virtual node when
 * VSYM_VIRTUAL_NODES is set). Owned by the context; never destroy them. */
VSYM_API vsym_team_t *vsym_team_world(vsym_ctx_t *ctx);
VSYM_API vsym_team_t *vsym_team_node(vsym_ctx_t *ctx);

/* The context a team belongs to. */
VSYM_API vsym_ctx_t *vsym_team_ctx(const vsym_team_t *team);

/* This rank's rank in the team, and the team's size. */
VSYM_API int vsym_team_rank(const vsym_team_t *team);
VSYM_API int vsym_team_size(const vsym_team_t *team);

/* The world rank of team rank r, or -1 when r is outside the team. */
VSYM_API int vsym_team_world_rank(const vsym_team_t *team, int r);

/* The node index (0 .. number of nodes - 1, virtual nodes counted) of team rank r, or -1. */
VSYM_API int vsym_team_node_of(const vsym_team_t *team, int r);

/* The number of distinct nodes in the team. */
VSYM_API int vsym_team_num_nodes(const vsym_team_t *team);

/* The name of the transport that carries data to team rank r: "shm", "verbs", or NULL. */
VSYM_API const char *vsym_team_transport_of(const vsym_team_t *team, int r);

/* The largest blocking put (vsym_put, vsym_put_signal) to team rank r that returns without
 * waiting for its transfer whatever src is, as the transport copies it: SIZE_MAX over shared
 * memory (every put is a copy), the staging size over verbs (8 KiB). A larger blocking put from
 * registered memory (a symmetric object) waits for the transfer; a caller sending several of
 * those sends them with vsym_put_nbi / vsym_put_signal_nbi and one vsym_quiet. 0 for a NULL
 * team or a rank outside it. */
VSYM_API size_t vsym_team_put_staged_max(const vsym_team_t *team, int r);

/* Whether team rank r's ordinary memory (a buffer made symmetric by vsym_rendezvous, outside
 * the symmetric heap) is reached without a memory registration: 1 over shared memory where the
 * OS lets the ranks of a node copy from each other's memory (checked at vsym_init; Yama's
 * ptrace_scope 2 and 3 or a seccomp filter forbid it, and so does VSYM_PROCESS_COPY=off; vsym_get
 * and vsym_put to such memory of a peer then fail with VSYM_ERR_REMOTE_ACCESS). 0 over verbs (a
 * registration per rendezvous), for a NULL team or a rank outside it. The collectives and the copy
 * service ask it before taking a path that needs such copies. */
VSYM_API int vsym_team_process_copy(const vsym_team_t *team, int r);

/* Split a team: the ranks start, start+stride, ... (size ranks) of parent form a new team, in
 * that order. Collective over the ranks of parent. Ranks outside the new team get
 * *team_p = NULL and VSYM_OK. Returns VSYM_ERR_INVALID_PARAM for a start, stride or size that
 * leaves the parent. */
VSYM_API vsym_status_t vsym_team_split_strided(vsym_team_t *parent, int start, int stride,
                                               int size, vsym_team_t **team_p);

/* Destroy a team made by vsym_team_split_strided(). Collective over the team. NULL is a no-op. */
VSYM_API vsym_status_t vsym_team_destroy(vsym_team_t *team);

/* Allgather over the team, for set-up work (schedules, descriptors, timings), not for data
 * paths: every rank contributes len bytes (the same len everywhere, else VSYM_ERR_MISMATCH on
 * every rank); out receives team_size blocks, block i from team rank i. Collective over the
 * team. It goes through the team's own memory (its first call sets up 2 x team_size KiB of each
 * rank's internal region), about 1 KiB per round of puts and a team barrier, so like
 * vsym_team_barrier it completes the puts issued before it. */
VSYM_API vsym_status_t vsym_team_exchange(vsym_team_t *team, const void *in, size_t len,
                                          void *out);

/* Barrier over the team, also completing every put issued before it (quiet, then the barrier on
 * the team's internal signal pad). */
VSYM_API vsym_status_t vsym_team_barrier(vsym_team_t *team, double timeout_s);

/* ---- Symmetric objects -------------------------------------------------------------------- */

/* Allocate size bytes on the symmetric heap of every team member. Collective over the team; the
 * size must be the same on every rank (else VSYM_ERR_MISMATCH on every rank). The object has the
 * same heap offset on every member and is aligned to 64 bytes. size 0 is valid (an object with
 * only a signal pad). Returns VSYM_ERR_HEAP_EXHAUSTED when the heap (VSYM_HEAP_SIZE) has no
 * room on some member (on every member). */
VSYM_API vsym_status_t vsym_alloc(vsym_team_t *team, size_t size, vsym_obj_t **obj_p);

/* Make an existing local buffer symmetric over the team (rendezvous). Collective; the size must
 * match on every rank. Any memory is accepted: memory of the symmetric heap gets direct peer
 * pointers and CPU atomics on the same node; other memory is reached by the peers of this node
 * through process-to-process copies (no direct pointer, no atomics) and over verbs through a
 * memory registration. The buffer must outlive the object. */
VSYM_API vsym_status_t vsym_rendezvous(vsym_team_t *team, void *buf, size_t size,
                                       vsym_obj_t **obj_p);

/* Register a local buffer as the source of puts and the destination of gets (local: nothing is
 * exchanged; NVSHMEM's nvshmemx_buffer_register). Over verbs the NIC then reads and writes it
 * in place instead of through the transport's bounce slots (a memory registration, which pins
 * the pages); for memory of the symmetric heap (registered already) or with no peer over verbs
 * nothing else happens. A non-blocking operation on it must
 * be complete (vsym_quiet) before it is unregistered, and it must be unregistered before it is
 * freed; vsym_finalize unregisters what is left. Registrations may overlap or repeat an
 * address (a caller and the copy service may both register one buffer): each is undone by its
 * own vsym_buffer_unregister. VSYM_ERR_INVALID_PARAM for a NULL ctx or address or 0 bytes; the
 * registration's own failure (e.g. VSYM_ERR_TRANSPORT when the NIC refuses it). */
VSYM_API vsym_status_t vsym_buffer_register(vsym_ctx_t *ctx, void *addr, size_t len);

/* Undo the latest vsym_buffer_register(addr) not yet undone. VSYM_ERR_INVALID_PARAM when none is
 * left at addr. */
VSYM_API vsym_status_t vsym_buffer_unregister(vsym_ctx_t *ctx, void *addr);

/* Free an object from vsym_alloc() or vsym_rendezvous(). Collective over its team, with a
 * barrier first so that no peer is still accessing it. NULL is a no-op. */
VSYM_API vsym_status_t vsym_obj_free(vsym_obj_t *obj);

/* This rank's memory of the object, its size, its team, its heap offset (SIZE_MAX when not on
 * the heap). */
VSYM_API void *vsym_obj_ptr(const vsym_obj_t *obj);
VSYM_API size_t vsym_obj_size(const vsym_obj_t *obj);
VSYM_API vsym_team_t *vsym_obj_team(const vsym_obj_t *obj);
VSYM_API size_t vsym_obj_heap_offset(const vsym_obj_t *obj);

/* A pointer through which this rank can load and store team rank r's memory of the object,
 * or NULL when r is not reachable by load/store (another node, or not heap memory). */
VSYM_API void *vsym_obj_peer_ptr(const vsym_obj_t *obj, int r);

/* ---- RMA ---------------------------------------------------------------------------------- */

/* Copy len bytes from src to offset of team rank r's memory of obj. Returns when src may be
 * reused; visible at r after vsym_quiet() (or a later signal or barrier). Errors:
 * VSYM_ERR_BAD_RANK, VSYM_ERR_OUT_OF_BOUNDS (offset + len beyond the object),
 * VSYM_ERR_INVALID_PARAM (NULL src with len > 0), transport errors naming the peer. */
VSYM_API vsym_status_t vsym_put(vsym_obj_t *obj, int r, size_t offset, const void *src,
                                size_t len);

/* Copy len bytes from offset of team rank r's memory of obj into dst; complete on return. */
VSYM_API vsym_status_t vsym_get(vsym_obj_t *obj, int r, size_t offset, void *dst, size_t len);

/* Non-blocking forms: the buffers may be reused only after vsym_quiet(). */
VSYM_API vsym_status_t vsym_put_nbi(vsym_obj_t *obj, int r, size_t offset, const void *src,
                                    size_t len);
VSYM_API vsym_status_t vsym_get_nbi(vsym_obj_t *obj, int r, size_t offset, void *dst,
                                    size_t len);

/* ---- Atomics ------------------------------------------------------------------------------ */

typedef enum vsym_amo_op {
    VSYM_AMO_FETCH,     /* *old_p = target */
    VSYM_AMO_SET,       /* target = value */
    VSYM_AMO_ADD,       /* target += value */
    VSYM_AMO_FETCH_ADD, /* *old_p = target; target += value */
    VSYM_AMO_SWAP,      /* *old_p = target; target = value */
    VSYM_AMO_CSWAP,     /* *old_p = target; if target == compare: target = value */
} vsym_amo_op_t;

/* Atomic operation on the 64-bit (or 32-bit) word at offset of team rank r's memory of obj.
 * The offset must be 8- (or 4-) byte aligned (else VSYM_ERR_UNALIGNED). old_p may be NULL for
 * SET and ADD. All atomics on one object take the same path (CPU or NIC) on every rank, so they
 * are atomic with respect to each other. Complete at the target on return. */
VSYM_API vsym_status_t vsym_atomic64(vsym_obj_t *obj, int r, size_t offset, vsym_amo_op_t op,
                                     uint64_t value, uint64_t compare, uint64_t *old_p);
VSYM_API vsym_status_t vsym_atomic32(vsym_obj_t *obj, int r, size_t offset, vsym_amo_op_t op,
                                     uint32_t value, uint32_t compare, uint32_t *old_p);

/* Non-blocking 64-bit atomic (OpenSHMEM's shmem_atomic_fetch_add_nbi and friends): FETCH, ADD,
 * FETCH_ADD or CSWAP (else VSYM_ERR_BAD_OP) that may still be in flight on return. It is complete
 * at the target, and *old_p holds the old value, after the next vsym_quiet; old_p must stay valid
 * until then (NULL only for ADD: else VSYM_ERR_INVALID_PARAM). Over verbs many are in flight at
 * once (the NIC's message rate); CPU atomics complete on return. No order among them is promised
 * before the quiet. */
VSYM_API vsym_status_t vsym_atomic64_nbi(vsym_obj_t *obj, int r, size_t offset, vsym_amo_op_t op,
                                         uint64_t value, uint64_t compare, uint64_t *old_p);

/* ---- Point-to-point synchronisation ------------------------------------------------------- */

typedef enum vsym_cmp {
    VSYM_CMP_EQ,
    VSYM_CMP_NE,
    VSYM_CMP_GT,
    VSYM_CMP_GE,
    VSYM_CMP_LT,
    VSYM_CMP_LE,
} vsym_cmp_t;

/* Wait until the local 64-bit word at offset of obj compares to value (unsigned) as cmp says.
 * VSYM_ERR_TIMED_OUT on expiry (the detail gives the word's last value). */
VSYM_API vsym_status_t vsym_wait_until64(vsym_obj_t *obj, size_t offset, vsym_cmp_t cmp,
                                         uint64_t value, double timeout_s);

typedef enum vsym_signal_op {
    VSYM_SIGNAL_SET,
    VSYM_SIGNAL_ADD,
} vsym_signal_op_t;

/* Put with signal (OpenSHMEM style): put len bytes to r, then update the 64-bit word at
 * sig_offset of r's memory of sig_obj (same team) with sig_op and sig_value. The signal is
 * visible at r only after the data. Returns when src may be reused; data and signal reach r
 * without further calls, and are complete there after vsym_quiet (an ADD signal is not waited
 * for here; a SET signal is, as it is a compare-swap loop on a NIC). */
VSYM_API vsym_status_t vsym_put_signal(vsym_obj_t *obj, int r, size_t offset, const void *src,
                                       size_t len, vsym_obj_t *sig_obj, size_t sig_offset,
                                       uint64_t sig_value, vsym_signal_op_t sig_op);
/* The same, non-blocking for the data (OpenSHMEM's put_signal_nbi): src may be reused only
 * after vsym_quiet(). Over a NIC the data leaves straight from src when it is registered memory
 * (a symmetric object), where vsym_put_signal would wait for the transfer; the signal still
 * follows the data without further calls. A SET signal is waited for as in vsym_put_signal. */
VSYM_API vsym_status_t vsym_put_signal_nbi(vsym_obj_t *obj, int r, size_t offset,
                                           const void *src, size_t len, vsym_obj_t *sig_obj,
                                           size_t sig_offset, uint64_t sig_value,
                                           vsym_signal_op_t sig_op);

/* ---- Signal pads -------------------------------------------------------------------------- */

/* The number of channels of every signal pad (VSYM_SIGNAL_CHANNELS). */
VSYM_API int vsym_signal_channels(const vsym_ctx_t *ctx);

/* Signal team rank r on channel ch of obj's pad (compare-swap 0 -> 1 on r's slot [ch][me],
 * retried while the previous signal is unconsumed). Earlier puts by this rank to r are visible
 * at r before the signal. Errors: VSYM_ERR_BAD_RANK, VSYM_ERR_BAD_CHANNEL, VSYM_ERR_TIMED_OUT. */
VSYM_API vsym_status_t vsym_signal_put(vsym_obj_t *obj, int r, int ch, double timeout_s);

/* Wait for a signal from team rank r on channel ch (compare-swap 1 -> 0 on the own slot). */
VSYM_API vsym_status_t vsym_signal_wait(vsym_obj_t *obj, int r, int ch, double timeout_s);

/* Put then signal on a pad channel: the data is visible at r when vsym_signal_wait(me, ch)
 * returns there. */
VSYM_API vsym_status_t vsym_put_with_signal(vsym_obj_t *obj, int r, size_t offset,
                                            const void *src, size_t len, int ch, double timeout_s);

/* Barrier over obj's team on channel ch of obj's pad: signal every peer, wait for every peer.
 * Earlier puts by this rank are complete at their targets before the others leave. */
VSYM_API vsym_status_t vsym_signal_barrier(vsym_obj_t *obj, int ch, double timeout_s);

/* Read (not consume) the slot [ch][src] of this rank's pad of obj: 0 or 1. For tests and
 * debugging: a pad is all zeros after every completed synchronisation. */
VSYM_API vsym_status_t vsym_signal_peek(const vsym_obj_t *obj, int src, int ch, uint64_t *value_p);

#ifdef __cplusplus
}
#endif
#endif
