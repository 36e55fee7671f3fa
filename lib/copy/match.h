/* Matching and validation of the copy service's registrations: a pure module. Every rank runs it
 * on the same allgathered registrations of the whole team, so every rank reaches the same
 * verdict and the same detail, whichever rank made the mistake. */
#ifndef VSYM_COPY_MATCH_H
#define VSYM_COPY_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include <vsym/status.h>
#include "copy/schedule.h"

enum {
    VSYM_COPY_REG_SEND = 0,
    VSYM_COPY_REG_RECV = 1,
    VSYM_COPY_REG_BAD_PEER = 0x10, /* or-ed in: the peer was outside the team at registration */
};

/* One registration as the team sees it (the wire format of the allgather: 72 bytes). */
typedef struct vsym_copy_reg {
    uint64_t id;
    uint64_t size;
    uint64_t addr;    /* receives: address of the range on its rank (for the overlap check) */
    uint64_t buf_off; /* receives: offset of the range inside its buffer region */
    uint64_t row;     /* 0: the size bytes are contiguous; else rows of row bytes ... */
    uint64_t stride;  /* ... stride bytes apart (vsym_copy_register_*_rows) */
    int32_t rank;     /* the registering rank */
    int32_t peer;     /* the rank it names */
    uint32_t kind;    /* VSYM_COPY_REG_SEND or _RECV, maybe | VSYM_COPY_REG_BAD_PEER */
    uint32_t buf;     /* receives: index of its buffer region on its rank */
    uint32_t direct;  /* receives: the region lies in its rank's symmetric heap (load/store
                       * reachable from the ranks that reach it over shared memory) */
    uint32_t pad;
} vsym_copy_reg_t;

/* A task of size bytes in rows of row bytes, stride apart (row 0: contiguous): from its first
 * byte to one past its last. */
static inline uint64_t vsym_copy_rows_span(uint64_t size, uint64_t row, uint64_t stride)
{
    return (row && size) ? (size / row - 1) * stride + row : size;
}

/* Match sends to receives by task id and validate the set. On success *tasks_p (malloc'd, free
 * it) holds one task per id, with send_reg / recv_reg the indices of its registrations in regs,
 * ordered by id. On failure the status is, by priority, VSYM_ERR_BAD_RANK (a peer outside the
 * team), VSYM_ERR_BAD_TASK (duplicate id on one side, one side only, peers that do not name
 * each other, overlapping receive ranges on a rank), VSYM_ERR_BAD_SIZE (sizes differ); the detail
 * counts the invalid tasks and lists the first ones with what is wrong. */
vsym_status_t vsym_copy_match(const vsym_copy_reg_t *regs, size_t nregs, int nranks,
                              vsym_copy_sched_task_t **tasks_p, size_t *ntasks_p);

#endif
