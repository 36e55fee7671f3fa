/* Transports: how bytes and atomics reach a peer's memory. One ops table per transport; an
 * operation a transport lacks points at vsym_tp_unsupported_*() so that callers never test for
 * NULL. Peers are world ranks. Only lib/core uses this header.
 *
 * Memory model shared by all transports. Every rank owns one "arena": a memfd-backed region that
 * holds its symmetric heap and the library's internal shared memory (signal pads, scratch). The
 * arena is registered once with every transport at creation (shm maps the arenas of the ranks
 * of its node; verbs registers it as one memory region and exchanges the keys). Remote memory is
 * named by a vsym_tp_raddr_t: an offset into the peer's arena, or, for memory outside it (user
 * buffers made symmetric by rendezvous), the peer's virtual address and the key from mem_reg. */
#ifndef VSYM_TP_H
#define VSYM_TP_H

#include <stddef.h>
#include <stdint.h>
#include <vsym/core.h>
#include "boot/boot.h"
#include "util/util.h"

typedef struct vsym_tp vsym_tp_t;
typedef struct vsym_tp_ops vsym_tp_ops_t;

#define VSYM_TP_ADDR_ARENA 0x1u /* addr is an offset into the peer's arena */

typedef struct vsym_tp_raddr {
    uint64_t addr;  /* arena offset (flags & VSYM_TP_ADDR_ARENA) or the peer's virtual address */
    uint32_t rkey;  /* for non-arena memory: the key the owner's mem_reg returned (verbs) */
    uint32_t flags;
} vsym_tp_raddr_t;

/* This rank's arena, as the core created it. */
typedef struct vsym_tp_arena {
    void *base;
    size_t size;
    int memfd;
} vsym_tp_arena_t;

/* Flags of put/get. */
#define VSYM_TP_NBI 0x1u /* return at once; buffers reusable and data complete after quiet */

struct vsym_tp_ops {
    const char *name;
    /* The largest blocking put that returns without waiting for its transfer whatever src is
     * (the transport copies it); a larger blocking put from registered memory waits for its
     * completion. SIZE_MAX: every put is a copy, complete on return. */
    size_t put_staged_max;
    void (*destroy)(vsym_tp_t *tp);
    /* Make local memory outside the arena reachable by peers; *rkey_p goes to peers in
     * raddr.rkey. *memh_p is passed back to mem_dereg. */
    vsym_status_t (*mem_reg)(vsym_tp_t *tp, void *addr, size_t len, void **memh_p,
                             uint32_t *rkey_p);
    void (*mem_dereg)(vsym_tp_t *tp, void *memh);
    /* A load/store pointer to the peer's memory, or NULL. */
    void *(*peer_ptr)(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *raddr);
    /* Copy len bytes from local src to the peer. Without VSYM_TP_NBI: returns when src may be
     * reused. With it: src may be reused after quiet. Remote visibility: after quiet. */
    vsym_status_t (*put)(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst, const void *src,
                         size_t len, unsigned flags);
    /* Copy len bytes from the peer into local dst. Without VSYM_TP_NBI: complete on return. */
    vsym_status_t (*get)(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *src, void *dst,
                         size_t len, unsigned flags);
    /* Atomics: complete at the target on return; old_p may be NULL for SET and ADD. */
    vsym_status_t (*atomic64)(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                              vsym_amo_op_t op, uint64_t value, uint64_t compare,
                              uint64_t *old_p);
    vsym_status_t (*atomic32)(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                              vsym_amo_op_t op, uint32_t value, uint32_t compare,
                              uint32_t *old_p);
    /* A 64-bit FETCH, ADD, FETCH_ADD or CSWAP that may still be in flight on return: complete
     * at the target, and *old_p (may be NULL) written, after quiet. A transport whose atomics
     * complete at once points it at its atomic64. */
    vsym_status_t (*atomic64_nbi)(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                                  vsym_amo_op_t op, uint64_t value, uint64_t compare,
                                  uint64_t *old_p);
    /* Puts to peer issued before are visible at the peer before any put or atomic issued after
     * (peer -1: all peers). The core relies on it to order data before a signal. */
    vsym_status_t (*fence)(vsym_tp_t *tp, int peer);
    /* Everything issued to peer (-1: to every peer) is complete at its target. */
    vsym_status_t (*quiet)(vsym_tp_t *tp, int peer);
};

struct vsym_tp {
    const vsym_tp_ops_t *ops;
    /* Memory outside the arenas (buffers made symmetric by rendezvous) of every peer this
     * transport reaches is reached without a registration: shm where the OS lets the ranks of a
     * node copy from and to each other's memory (process_vm_readv, checked at create). */
    int process_copy;
};

/* Stubs for operations a transport lacks: they fail with VSYM_ERR_UNSUPPORTED. */
vsym_status_t vsym_tp_unsupported_mem_reg(vsym_tp_t *tp, void *addr, size_t len, void **memh_p,
                                          uint32_t *rkey_p);
vsym_status_t vsym_tp_unsupported_atomic32(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                                           vsym_amo_op_t op, uint32_t value, uint32_t compare,
                                           uint32_t *old_p);

/* Shared memory between the ranks of one node. node_of[r] is the (possibly virtual) node of
 * every world rank; the arenas of the ranks with this rank's node are mapped. Collective over
 * the whole job (it allgathers through boot). */
vsym_status_t vsym_tp_shm_create(vsym_boot_t *boot, const vsym_tp_arena_t *arena,
                                 const int *node_of, vsym_tp_t **tp_p);

/* RDMA verbs: RC queue pairs to every world rank r with need[r] != 0 (self included when
 * need[self]: a loopback QP, for NIC atomics on own memory). Collective over the whole job (every
 * rank calls it, with its own need array; the connection data is allgathered through boot).
 * VSYM_ERR_NO_DEVICE when no usable device exists. */
vsym_status_t vsym_tp_verbs_create(vsym_boot_t *boot, const vsym_tp_arena_t *arena,
                                   const uint8_t *need, vsym_tp_t **tp_p);

/* The device, port and GID index a verbs transport uses, for benchmark records:
 * e.g. "rxe0:1 gid 1 (RoCE v2 fe80::...)". */
const char *vsym_tp_verbs_describe(vsym_tp_t *tp);

#endif
