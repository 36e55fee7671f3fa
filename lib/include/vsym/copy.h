/* vsym copy: the remote copy service. Register many byte-range copies between the ranks of a
 * team, schedule them once, run them as often as needed, clear, register a new set.
 *
 * Model. A copy task moves size bytes from one rank's memory to another rank's memory (or within
 * one rank). The sending rank registers the task with vsym_copy_register_send(task_id, buffer,
 * position, size, dest_rank); the receiving rank registers the same task id with
 * vsym_copy_register_receive(task_id, buffer, position, size, src_rank) (or the _rows variants,
 * for bytes that lie in rows of a matrix on either side). A task whose sender and
 * receiver are the same rank is registered on that rank on both sides and becomes a local copy.
 * Task ids are chosen by the caller and must be unique over the team's registered set: each id
 * has exactly one send and exactly one receive. (A planner that every rank runs alike, such as
 * vsym reshard, numbers its tasks the same way on every rank without exchanging them.)
 *
 * Buffers. Buffers are ordinary local memory (malloc, stack, mmap) or memory of symmetric
 * objects (vsym_obj_ptr()). The service keeps the pointers, not copies: every registered buffer
 * range must stay valid, at the same address, from registration until vsym_copy_clear() or
 * vsym_copy_destroy(). At schedule time the service makes each distinct receive buffer (one per
 * distinct buffer pointer passed to register_receive, covering the registered ranges) reachable
 * by its senders, once, so that run() writes straight into it (zero copy); where that is not
 * possible (VSYM_COPY_ZERO_COPY=0 on some rank; a rank that cannot make process-to-process
 * copies to a peer on its node, see VSYM_PROCESS_COPY; over verbs, a buffer whose exposure would
 * pin a large placeholder on ranks without one of the same extent) it stages through symmetric
 * staging slots (two receive slots of VSYM_COPY_STAGING bytes per rank, on the symmetric heap).
 * Either way the result is the same. Cost: exposing a buffer is a collective rendezvous per
 * distinct buffer extent (and per repeat of an extent on one rank; buffers that touch in memory
 * count as one), at most 64 of them (the smallest buffers beyond are staged), so register receives
 * into few distinct buffers (e.g. one arena with positions) when there are many. Send buffers bound
 * for peers over verbs are registered for the NIC at schedule time (vsym_buffer_register, one
 * registration per extent grouped the same way; local, no exchange), so that run() puts from
 * them in place instead of copying through the transport's bounce slots; the registrations end
 * with vsym_copy_clear() or vsym_copy_destroy().
 *
 * Schedule. vsym_copy_schedule() validates the whole registered set of the team (every rank sees
 * every error), cuts tasks into pieces of at most VSYM_COPY_CHUNK bytes, packs the pieces of each
 * (sender, receiver) pair into batches of at most one chunk, and colours the bipartite multigraph
 * senders x receivers (one edge per batch) so that in one iteration every rank sends at most one
 * batch and receives at most one batch. The number of iterations is exactly
 * delta = the largest number of batches any rank sends or receives (optimal). Every rank computes
 * the same schedule from one allgather of task summaries.
 *
 * Run. vsym_copy_run() executes the schedule: iterations in order, synchronised pairwise
 * (receiver ready -> sender writes -> sender signals done), never by a global barrier.
 * When run() returns on a rank, every byte this rank receives is in its receive buffers and every
 * send buffer of this rank may be modified. A sender writes into a receive buffer only after its
 * receiver has entered the same run(), so a rank may read its receive buffers between runs.
 *
 * Lifecycle:
 *     vsym_copy_create(team, &svc);
 *     vsym_copy_register_send(svc, ...); vsym_copy_register_receive(svc, ...);  (any number)
 *     vsym_copy_schedule(svc);                                                   (collective)
 *     vsym_copy_run(svc); vsym_copy_run(svc); ...                                (collective)
 *     vsym_copy_clear(svc);  -> register a new set, schedule, run ...            (collective)
 *     vsym_copy_destroy(svc);                                                    (collective)
 *
 * Threads. A service may be used by one thread at a time; it uses the team's context, so the
 * caller also serialises it with other users of that context.
 *
 * Settings: VSYM_COPY_STAGING (size of one staging slot, default 8M, at least 4 KiB) and
 * VSYM_COPY_CHUNK (largest piece of a task moved in one batch; 0 = the staging size; never more
 * than the staging size), the same on every rank, else schedule() fails with VSYM_ERR_MISMATCH;
 * VSYM_COPY_ZERO_COPY (1 default; 0 on any rank stages every byte on every rank), VSYM_TIMEOUT
 * (every wait for a peer). */
#ifndef VSYM_COPY_H
#define VSYM_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <vsym/core.h>
#include <vsym/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vsym_copy vsym_copy_t;

/* Statistics of the current schedule (vsym_copy_stats()). Counts marked "team" are the same on
 * every rank; "this rank" counts differ. */
typedef struct vsym_copy_stats {
    uint64_t tasks;           /* team: registered tasks (each counted once, local ones included) */
    uint64_t local_tasks;     /* team: tasks whose sender is their receiver (local copies) */
    uint64_t segments;        /* team: pieces of remote tasks after cutting at chunk boundaries */
    uint64_t segmented_tasks; /* team: remote tasks cut into more than one piece */
    uint64_t batches;         /* team: batches (edges of the multigraph, remote only) */
    uint64_t iterations;      /* team: iterations of the schedule */
    uint64_t delta;           /* team: largest number of batches a rank sends or receives;
                               * iterations == delta for every schedule vsym builds */
    uint64_t total_bytes;     /* team: bytes of remote tasks */
    uint64_t local_bytes;     /* team: bytes of local copies */
    uint64_t zero_copy_bytes; /* team: remote bytes written straight into receive buffers */
    uint64_t staged_bytes;    /* team: remote bytes moved through staging slots */
    uint64_t max_iteration_bytes; /* team: the largest batch (what bounds an iteration) */
    uint64_t chunk_size;          /* the chunk size in force (bytes) */
    uint64_t rank_send_bytes;     /* this rank: remote bytes sent per run */
    uint64_t rank_recv_bytes;     /* this rank: remote bytes received per run */
    uint64_t rank_send_batches;   /* this rank: batches sent per run */
    uint64_t rank_recv_batches;   /* this rank: batches received per run */
    double schedule_seconds;      /* this rank: wall time of the last vsym_copy_schedule() */
    double compute_seconds;       /* this rank: time of the local computation of the last schedule
                                   * (validation, segmenting, packing, colouring), without the
                                   * exchange and the rendezvous */
    uint64_t rendezvous_rounds;   /* team: collective rendezvous made to expose receive buffers */
    uint64_t send_registered_bytes; /* this rank: bytes of its send buffers registered for its
                                     * peers over verbs (vsym_buffer_register; the NIC reads them
                                     * in place), their extents merged as the receives' */
    uint64_t greedy_iterations;   /* team: for comparison, the iterations Megatron's NVSHMEM
                                   * service's rule (one batch per rank per iteration, send or
                                   * receive, first fit) needs for the same batches */
    /* this rank: 1 where its copies in a run use non-temporal stores (x86-64: its bytes per run,
     * sent, received and local, reach a single copy's VSYM_NT_THRESHOLD, auto at most 48 MiB),
     * else 0; as the settings are now */
    uint64_t streaming;
} vsym_copy_stats_t;

/* Per-iteration figures (vsym_copy_iteration_info()); the same on every rank. */
typedef struct vsym_copy_iteration {
    uint64_t batches;   /* batches moved in this iteration */
    uint64_t bytes;     /* their total bytes */
    uint64_t max_bytes; /* the largest of them: what bounds the iteration's time */
} vsym_copy_iteration_t;

/* Create a copy service over team. Collective over the team (it allocates a small symmetric
 * control object for the pairwise signals). The team must outlive the service.
 * Returns VSYM_OK, VSYM_ERR_INVALID_PARAM (NULL argument), VSYM_ERR_NO_MEMORY,
 * VSYM_ERR_HEAP_EXHAUSTED, or a core error of the collective allocation. */
VSYM_API vsym_status_t vsym_copy_create(vsym_team_t *team, vsym_copy_t **svc_p);

/* Register the sending side of task task_id: size bytes at buffer + position go to team rank
 * dest_rank (which may be this rank: a local copy). Local, no communication; the bytes are read
 * only by vsym_copy_run(). size 0 is valid (a task that moves nothing but must still match).
 * Errors: VSYM_ERR_INVALID_PARAM (NULL svc, NULL buffer with size > 0, position + size
 * overflows), VSYM_ERR_BAD_STATE (a schedule exists: vsym_copy_clear() first),
 * VSYM_ERR_NO_MEMORY, VSYM_ERR_BAD_RANK (dest_rank outside the team). A registration rejected
 * with VSYM_ERR_BAD_RANK also makes the next vsym_copy_schedule() fail on every rank with
 * VSYM_ERR_BAD_RANK naming the task, so the team never runs an incomplete set.
 * Duplicate ids, unmatched ids and size mismatches are found by vsym_copy_schedule(). */
VSYM_API vsym_status_t vsym_copy_register_send(vsym_copy_t *svc, uint64_t task_id,
                                               const void *buffer, size_t position, size_t size,
                                               int dest_rank);

/* Register the receiving side of task task_id: size bytes from team rank src_rank land at
 * buffer + position. Receive ranges of one rank must not overlap (checked by schedule()).
 * Same errors and rules as vsym_copy_register_send(). */
VSYM_API vsym_status_t vsym_copy_register_receive(vsym_copy_t *svc, uint64_t task_id, void *buffer,
                                                  size_t position, size_t size, int src_rank);

/* The same, for a task whose bytes lie in rows on this side (a block of columns of a row-major
 * matrix): size / row_bytes rows of row_bytes bytes, the first at buffer + position, each
 * stride bytes after the one before. The task's bytes are its rows in order; the other side
 * may be contiguous or in rows of another shape. The service writes rows straight into a
 * receive buffer (zero copy) or packs and unpacks them through its staging slots, so no caller
 * packing is needed. Receive ranges overlap when they share a byte: column blocks of one matrix
 * registered by different tasks interleave without overlapping. Rows are written in place when
 * the sender can store into the receive buffer (it lies in the receiver's symmetric heap, e.g.
 * vsym_alloc() memory, and the sender reaches it over shared memory); elsewhere (other
 * memory, reached by a system call per write; verbs) they go through the staging slots, which
 * costs the receiver one more copy. Errors as above, and
 * VSYM_ERR_BAD_SIZE when row_bytes is 0, size is not a multiple of row_bytes, or stride is
 * smaller than row_bytes. */
VSYM_API vsym_status_t vsym_copy_register_send_rows(vsym_copy_t *svc, uint64_t task_id,
                                                    const void *buffer, size_t position,
                                                    size_t size, size_t row_bytes, size_t stride,
                                                    int dest_rank);
VSYM_API vsym_status_t vsym_copy_register_receive_rows(vsym_copy_t *svc, uint64_t task_id,
                                                       void *buffer, size_t position, size_t size,
                                                       size_t row_bytes, size_t stride,
                                                       int src_rank);

/* Validate the registered set of the whole team and build the schedule. Collective over the
 * team. No byte of any task moves. Every rank checks the allgathered set of the whole team, so
 * an error is reported on every rank, with the same status and a detail listing the offending
 * task ids (the count, and the first few with what is wrong), e.g.
 *   "copy schedule: 2 invalid tasks (2 listed): task 17: send on rank 0 to rank 1 has no
 *    receive; task 5: 100 bytes sent by rank 1, 96 received by rank 2"
 * Statuses (VSYM_ERR_BAD_STATE and VSYM_ERR_MISMATCH are found first; among the three kinds of
 * invalid task, the first in this list wins):
 *   VSYM_ERR_BAD_RANK  a registration named a peer outside the team;
 *   VSYM_ERR_BAD_TASK  a task id registered twice on one side, a task registered on one side
 *                      only, sender and receiver that do not name each other, or overlapping
 *                      receive ranges on one rank;
 *   VSYM_ERR_BAD_SIZE  sender and receiver registered different sizes;
 *   VSYM_ERR_BAD_STATE a schedule already exists (clear first);
 *   VSYM_ERR_MISMATCH  VSYM_COPY_STAGING or VSYM_COPY_CHUNK differ between ranks;
 *   VSYM_ERR_NO_MEMORY, VSYM_ERR_HEAP_EXHAUSTED (staging slots), core errors of the exchange or
 *   of making receive buffers symmetric.
 * After an error the registered set is kept unchanged (clear() to start again). */
VSYM_API vsym_status_t vsym_copy_schedule(vsym_copy_t *svc);

/* Execute the schedule once: every registered byte is copied. Collective over the team (ranks
 * without tasks return at once). May be called any number of times after one schedule().
 * Completion: on return, this rank's receive buffers hold the data and its send buffers may be
 * reused. Errors: VSYM_ERR_BAD_STATE (no schedule), VSYM_ERR_TIMED_OUT naming the peer waited
 * for (VSYM_TIMEOUT), transport errors naming the peer. After an error the service can only be
 * cleared or destroyed: the peers' state is unknown. */
VSYM_API vsym_status_t vsym_copy_run(vsym_copy_t *svc);

/* Drop the registered tasks and the schedule (and the symmetric receive buffers and staging
 * slots made for it). Collective over the team when a schedule exists (symmetric objects are
 * freed), local otherwise. Afterwards a new set can be registered. */
VSYM_API vsym_status_t vsym_copy_clear(vsym_copy_t *svc);

/* Clear, then free the service. Collective over the team. NULL is a no-op. */
VSYM_API vsym_status_t vsym_copy_destroy(vsym_copy_t *svc);

/* Statistics of the current schedule. VSYM_ERR_BAD_STATE without a schedule. Local. */
VSYM_API vsym_status_t vsym_copy_stats(const vsym_copy_t *svc, vsym_copy_stats_t *stats_p);

/* Figures of iteration it (0 .. iterations - 1) of the current schedule. Local.
 * VSYM_ERR_BAD_STATE without a schedule, VSYM_ERR_INVALID_PARAM for it out of range. */
VSYM_API vsym_status_t vsym_copy_iteration_info(const vsym_copy_t *svc, uint64_t it,
                                                vsym_copy_iteration_t *info_p);

#ifdef __cplusplus
}
#endif
#endif
