/* Internal state of the core: context, teams, symmetric objects. Only lib/core includes it. */
#ifndef VSYM_CORE_INTERNAL_H
#define VSYM_CORE_INTERNAL_H

#include <stdint.h>
#include <vsym/core.h>
#include "boot/boot.h"
#include "tp/tp.h"
#include "util/util.h"

/* A first-fit allocator of offsets inside [base, base + size): used for the symmetric heap and
 * for the internal region of the arena. Blocks are kept sorted by offset. */
typedef struct vsym_core_range {
    size_t base;
    size_t size;
    size_t *off; /* sorted block offsets */
    size_t *len;
    size_t count;
    size_t cap;
} vsym_core_range_t;

/* The lowest offset >= min_off (aligned to align) where len bytes fit, or SIZE_MAX. */
size_t vsym_core_range_find(const vsym_core_range_t *r, size_t min_off, size_t len, size_t align);
vsym_status_t vsym_core_range_insert(vsym_core_range_t *r, size_t off, size_t len);
void vsym_core_range_remove(vsym_core_range_t *r, size_t off);
void vsym_core_range_destroy(vsym_core_range_t *r);

/* What every rank knows of every other rank after init. */
typedef struct vsym_core_peer {
    int node;      /* effective node index (virtual nodes counted) */
    int phys_node; /* PMIx node id */
    int pid;
    char host[64];
} vsym_core_peer_t;

struct vsym_ctx {
    vsym_boot_t boot;
    vsym_tp_arena_t arena;
    size_t heap_size;
    vsym_core_range_t heap;     /* [0, heap_size) of the arena */
    vsym_core_range_t internal; /* [heap_size, arena.size) of the arena */
    vsym_core_peer_t *peers;    /* per world rank */
    int num_nodes;
    int channels;
    vsym_tp_t *shm;
    vsym_tp_t *verbs;
    vsym_tp_t **tp_of; /* per world rank: the transport that carries data */
    vsym_team_t *world;
    vsym_team_t *node;
    struct vsym_obj *objs; /* every live object, freed at finalize */
    struct vsym_core_buf *bufs; /* buffers of vsym_buffer_register, unregistered at finalize */
    char host[64];
};

/* A buffer registered by vsym_buffer_register: its verbs registration (NULL without verbs). */
typedef struct vsym_core_buf {
    void *addr;
    size_t len;
    void *memh;
    struct vsym_core_buf *next;
} vsym_core_buf_t;

struct vsym_team {
    vsym_ctx_t *ctx;
    int rank;
    int size;
    int *members; /* world rank of each team rank */
    int num_nodes;
    int uses_verbs;    /* some member is reached over verbs: atomics go through the NIC */
    char id[48];       /* the same on every member: names its bootstrap exchanges */
    unsigned long seq; /* bootstrap exchanges so far */
    unsigned long children;
    struct vsym_obj *sync;     /* pad for vsym_team_barrier */
    struct vsym_obj *xchg;     /* vsym_team_exchange's slots, made at its first call, or NULL */
    unsigned long xchg_rounds; /* rounds through xchg so far (their parity picks the half) */
};

struct vsym_obj {
    vsym_team_t *team;
    void *ptr;
    size_t size;
    size_t heap_off;       /* SIZE_MAX when not on the heap */
    size_t pad_off;        /* arena offset of this rank's pad */
    size_t int_off;        /* arena offset of a team object's internal memory, or SIZE_MAX */
    uint64_t *pad;         /* this rank's pad: channels x team size slots */
    void *memh;            /* verbs registration of non-arena memory, or NULL */
    vsym_tp_raddr_t *data; /* per team rank: where its memory is */
    vsym_tp_raddr_t *pads; /* per team rank: where its pad is */
    void **peer_ptr;       /* per team rank: load/store pointer or NULL */
    vsym_tp_t **tp;        /* per team rank: data transport */
    vsym_tp_t **amo;       /* per team rank: atomics transport */
    int is_sync;           /* a team's own object (barrier pad, exchange slots), released with it */
    struct vsym_obj *next;
};

/* "rank 1 (world rank 1, node 0, host n1, pid 4242)": how errors name a peer. */
const char *vsym_core_peer_name(const vsym_team_t *team, int r, char *buf, size_t len);

/* Out-of-band allgather over the team (through the bootstrap). */
vsym_status_t vsym_core_exchange(vsym_team_t *team, const void *in, size_t len, void *out);

/* Create a team from a list of world ranks (collective over those ranks). */
vsym_status_t vsym_core_team_create(vsym_ctx_t *ctx, const int *members, int size, const char *id,
                                    vsym_team_t **team_p);
void vsym_core_team_release(vsym_team_t *team);

/* A team's own object (released with the team): a signal pad, and internal_size bytes of each
 * member's internal region (0: none), zeroed. Collective; a member without room fails every
 * member with VSYM_ERR_HEAP_EXHAUSTED. */
vsym_status_t vsym_core_obj_create(vsym_team_t *team, size_t internal_size, vsym_obj_t **obj_p);
void vsym_core_obj_release(vsym_obj_t *obj);

#endif
