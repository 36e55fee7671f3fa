/* The copy service's scheduler: a pure module (no communication, no global state), so that every
 * rank computes the same schedule from the same allgathered tasks and so that it can be tested
 * and timed alone.
 *
 * Input: the team's matched tasks (id, size, sender, receiver). Output:
 *  - pieces: every remote task cut at chunk boundaries of its (sender, receiver) stream. The
 *    tasks of one pair, in id order, are laid end to end and the stream is cut every chunk
 *    bytes; a piece is the part of one task inside one cut. So a task larger than a chunk is
 *    segmented (its pieces are named by the derived id (task id, segment)), small tasks are
 *    packed together, and a pair of B bytes needs exactly ceil(B / chunk) batches, the fewest
 *    possible.
 *  - batches: the cuts, one edge of the bipartite multigraph senders x receivers each.
 *  - iterations: an edge colouring of that multigraph with exactly delta colours (König), delta
 *    = the largest number of batches a rank sends or receives, by the alternating path method
 *    (O(E * (delta + V))). In one iteration a rank sends at most one batch and receives at most
 *    one batch. Edges are coloured largest first, preferring the lowest colour free at both
 *    ends, so that partial batches share iterations; iterations are then ordered by their
 *    largest batch, largest first.
 * Local tasks (sender == receiver) and empty tasks produce no pieces. */
#ifndef VSYM_COPY_SCHEDULE_H
#define VSYM_COPY_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>
#include <vsym/status.h>

typedef struct vsym_copy_sched_task {
    uint64_t id;
    uint64_t size;
    int32_t src;       /* sending team rank */
    int32_t dst;       /* receiving team rank */
    uint32_t send_reg; /* caller's cookies (index of the send and the receive registration); */
    uint32_t recv_reg; /* the scheduler ignores them */
} vsym_copy_sched_task_t;

typedef struct vsym_copy_piece {
    uint32_t task;         /* index into the input task array */
    uint32_t segment;      /* 0, 1, ...: with the task id, the derived id of the piece */
    uint64_t task_offset;  /* where the piece starts inside its task */
    uint64_t size;         /* > 0 */
    uint64_t batch_offset; /* where the piece starts inside its batch (staging layout) */
} vsym_copy_piece_t;

typedef struct vsym_copy_batch {
    int32_t src;
    int32_t dst;
    uint32_t seq; /* index of the batch among the batches of its pair */
    uint32_t iteration;
    uint32_t first_piece; /* its pieces: pieces[first_piece .. first_piece + num_pieces) */
    uint32_t num_pieces;
    uint64_t bytes;
} vsym_copy_batch_t;

typedef struct vsym_copy_sched {
    int nranks;
    uint64_t chunk;
    size_t num_tasks;
    size_t num_local;     /* tasks with src == dst */
    size_t num_segmented; /* remote tasks cut into more than one piece */
    uint64_t remote_bytes;
    uint64_t local_bytes;
    vsym_copy_piece_t *pieces; /* ordered by batch, then by offset in the batch */
    size_t num_pieces;
    vsym_copy_batch_t *batches; /* ordered by (src, dst, seq) */
    size_t num_batches;
    uint32_t delta;
    uint32_t iterations;
    /* send_of[it * nranks + r] / recv_of[...]: the batch rank r sends / receives in iteration
     * it, or -1. */
    int32_t *send_of;
    int32_t *recv_of;
    uint64_t *iter_bytes;     /* per iteration: total bytes */
    uint64_t *iter_max_bytes; /* per iteration: largest batch */
    uint32_t *iter_batches;   /* per iteration: number of batches */
} vsym_copy_sched_t;

/* Build the schedule of ntasks tasks over nranks ranks with the given chunk size (> 0). The
 * tasks may come in any order (the result does not depend on it); ids must be distinct and
 * ranks inside [0, nranks) (the caller validated them; VSYM_ERR_INVALID_PARAM otherwise).
 * Returns VSYM_OK, VSYM_ERR_INVALID_PARAM, VSYM_ERR_NO_MEMORY. *sched is filled only on
 * success; free it with vsym_copy_sched_free(). */
vsym_status_t vsym_copy_sched_build(const vsym_copy_sched_task_t *tasks, size_t ntasks, int nranks,
                                    uint64_t chunk, vsym_copy_sched_t *sched);

void vsym_copy_sched_free(vsym_copy_sched_t *sched);

/* For comparison only: the iterations the rule of Megatron's NVSHMEM copy service would need
 * for the same batches (a rank takes part in at most one batch per iteration, sending or
 * receiving; batches by decreasing conflict degree, each in the first iteration free at both
 * ends). At least the largest number of batches a rank sends and receives together (up to
 * 2 * delta), at most 4 * delta - 1. */
uint32_t vsym_copy_sched_greedy_iterations(const vsym_copy_sched_t *sched);

/* Check a schedule against its tasks: every remote byte in exactly one piece, pieces inside
 * their batch and task, at most one send and one receive per rank per iteration, the lookup
 * tables consistent, iterations == delta. VSYM_OK, or VSYM_ERR_INVALID_PARAM with a detail
 * naming the first violation. For tests and debug builds. */
vsym_status_t vsym_copy_sched_check(const vsym_copy_sched_task_t *tasks, size_t ntasks,
                                    const vsym_copy_sched_t *sched);

#endif
