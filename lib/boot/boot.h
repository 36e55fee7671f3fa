/* Bootstrap: who am I, how many are we, where are we, and an out-of-band allgather/barrier.
 * Backed by PMIx when a launcher started the job; otherwise a job of one ("singleton"). Only the
 * core uses it, for set-up (never on a data path). */
#ifndef VSYM_BOOT_H
#define VSYM_BOOT_H

#include <stddef.h>
#include "util/util.h"

typedef struct vsym_boot {
    int rank;        /* rank in the job */
    int size;        /* ranks in the job */
    int local_rank;  /* rank among the ranks of this node */
    int local_size;  /* ranks on this node */
    int node_id;     /* this node's index, from PMIx's own keys */
    int singleton;   /* 1 without a PMIx server */
    char nspace[256];
    void *impl;      /* PMIx state */
    unsigned long seq; /* allgather sequence number, for unique keys */
} vsym_boot_t;

/* Join the job. Without a PMIx server, set up a job of one and log an info line saying so. */
vsym_status_t vsym_boot_init(vsym_boot_t *boot);
void vsym_boot_finalize(vsym_boot_t *boot);

/* Allgather len bytes from each of the n job ranks listed in ranks (every listed rank calls it,
 * with the same list in the same order and the same tag): out receives n blocks of len bytes,
 * block i from ranks[i]. ranks == NULL means the whole job. tag must be unique among the
 * allgathers in flight for this set of ranks (e.g. team id and sequence). */
vsym_status_t vsym_boot_allgather(vsym_boot_t *boot, const int *ranks, int n, const char *tag,
                                  const void *in, size_t len, void *out);

/* Barrier over the whole job (a PMIx fence without data). */
vsym_status_t vsym_boot_barrier(vsym_boot_t *boot);

#endif
