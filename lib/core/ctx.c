/* The context: bootstrap, arena, transports, world and node teams. */
#define _GNU_SOURCE
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/core_internal.h"

/* What each rank tells every other rank at init. */
typedef struct {
    int32_t node_id;
    int32_t local_rank;
    int32_t local_size;
    int32_t pid;
    uint64_t arena_size;
    char host[64];
} init_info_t;

const char *vsym_core_peer_name(const vsym_team_t *team, int r, char *buf, size_t len)
{
    if (r < 0 || r >= team->size) {
        snprintf(buf, len, "rank %d (outside the team)", r);
        return buf;
    }
    int w = team->members[r];
    const vsym_core_peer_t *p = &team->ctx->peers[w];
    snprintf(buf, len, "rank %d (world rank %d, node %d, host %s, pid %d)", r, w, p->node,
             p->host, p->pid);
    return buf;
}

static vsym_status_t arena_create(vsym_ctx_t *ctx)
{
    size_t heap = vsym_config_size(VSYM_CFG_HEAP_SIZE);
    size_t internal = vsym_config_size(VSYM_CFG_INTERNAL_SIZE);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int fd;
    void *base;

    heap = (heap + page - 1) / page * page;
    internal = (internal + page - 1) / page * page;
    if (internal < page)
        internal = page;
    /* A memfd has no name in any file system: nothing can be left behind in /dev/shm, even when
     * the process is killed, and only processes allowed to ptrace this one can open it through
     * /proc/<pid>/fd (which is how same-node peers map it). */
    fd = memfd_create("vsym-arena", MFD_CLOEXEC);
    if (fd < 0)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "memfd_create of the arena failed: %s",
                         strerror(errno));
    if (ftruncate(fd, (off_t)(heap + internal)) != 0) {
        close(fd);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "sizing the arena to %zu bytes failed: %s",
                         heap + internal, strerror(errno));
    }
    base = mmap(NULL, heap + internal, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        close(fd);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "mapping the %zu-byte arena failed: %s",
                         heap + internal, strerror(errno));
    }
    ctx->arena.base = base;
    ctx->arena.size = heap + internal;
    ctx->arena.memfd = fd;
    ctx->heap_size = heap;
    ctx->heap.base = 0;
    ctx->heap.size = heap;
    ctx->internal.base = heap;
    ctx->internal.size = internal;
    return VSYM_OK;
}

/* Effective nodes: with VSYM_VIRTUAL_NODES=V the ranks of each physical node are split into V
 * pretend nodes of consecutive local ranks. Node indices are numbered in order of first
 * appearance by world rank, so every rank computes the same numbering. */
static void assign_nodes(vsym_ctx_t *ctx, const init_info_t *info, int n)
{
    long v = vsym_config_int(VSYM_CFG_VIRTUAL_NODES);
    long *keys = calloc((size_t)n, sizeof(long));
    int next = 0;
    for (int r = 0; r < n; r++) {
        long sub = 0;
        if (v > 1) {
            long per = (info[r].local_size + v - 1) / v;
            sub = info[r].local_rank / (per > 0 ? per : 1);
        }
        keys[r] = (long)info[r].node_id * 100000 + sub;
        ctx->peers[r].node = -1;
        for (int q = 0; q < r; q++)
            if (keys && keys[q] == keys[r]) {
                ctx->peers[r].node = ctx->peers[q].node;
                break;
            }
        if (ctx->peers[r].node < 0)
            ctx->peers[r].node = next++;
        ctx->peers[r].phys_node = info[r].node_id;
        ctx->peers[r].pid = info[r].pid;
        snprintf(ctx->peers[r].host, sizeof(ctx->peers[r].host), "%s", info[r].host);
    }
    ctx->num_nodes = next;
    free(keys);
}

static vsym_status_t transports_create(vsym_ctx_t *ctx)
{
    const char *mode = vsym_config_str(VSYM_CFG_TRANSPORT);
    int n = ctx->boot.size, me = ctx->boot.rank;
    int force_verbs = strcmp(mode, "verbs") == 0;
    int any_remote = ctx->num_nodes > 1;
    int *node_of = calloc((size_t)n, sizeof(int));
    vsym_status_t st = VSYM_OK;

    ctx->tp_of = calloc((size_t)n, sizeof(*ctx->tp_of));
    if (node_of == NULL || ctx->tp_of == NULL) {
        free(node_of);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "init: out of memory");
    }
    for (int r = 0; r < n; r++)
        node_of[r] = ctx->peers[r].node;
    if (strcmp(mode, "shm") == 0 && any_remote) {
        free(node_of);
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "VSYM_TRANSPORT=shm but the ranks are on %d nodes", ctx->num_nodes);
    }
    if (!force_verbs) {
        st = vsym_tp_shm_create(&ctx->boot, &ctx->arena, node_of, &ctx->shm);
        if (st != VSYM_OK)
            goto out;
    }
    if (force_verbs || any_remote) {
#ifdef VSYM_HAVE_VERBS_TP
        uint8_t *need = malloc((size_t)n);
        if (need == NULL) {
            st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "init: out of memory");
            goto out;
        }
        /* Every rank gets a queue pair, self and same-node peers included: atomics on memory
         * that any remote peer can reach must all go through the NIC (CPU and NIC atomics are
         * not atomic with respect to each other). */
        memset(need, 1, (size_t)n);
        st = vsym_tp_verbs_create(&ctx->boot, &ctx->arena, need, &ctx->verbs);
        free(need);
        if (st != VSYM_OK)
            goto out;
#else
        st = VSYM_FAIL(VSYM_ERR_UNSUPPORTED,
                       "ranks on %d nodes (or VSYM_TRANSPORT=verbs) need the verbs transport, "
                       "which this build lacks",
                       ctx->num_nodes);
        goto out;
#endif
    }
    for (int r = 0; r < n; r++)
        ctx->tp_of[r] = (!force_verbs && node_of[r] == node_of[me]) ? ctx->shm : ctx->verbs;
out:
    free(node_of);
    return st;
}

VSYM_API vsym_status_t vsym_init(vsym_ctx_t **ctx_p)
{
    vsym_ctx_t *ctx;
    init_info_t mine, *all = NULL;
    vsym_status_t st;
    int *members = NULL;
    int n, count = 0;

    if (ctx_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "vsym_init: NULL ctx_p");
    if ((st = vsym_settings_check()) != VSYM_OK) {
        vsym_error("%s", vsym_error_detail());
        return st;
    }
    ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "vsym_init: out of memory");
    ctx->arena.memfd = -1;
    ctx->channels = (int)vsym_config_int(VSYM_CFG_SIGNAL_CHANNELS);
    if (ctx->channels < 1 || ctx->channels > 1024) {
        st = VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "VSYM_SIGNAL_CHANNELS=%d outside 1..1024",
                       ctx->channels);
        goto err_free;
    }
    if (gethostname(ctx->host, sizeof(ctx->host) - 1) != 0)
        snprintf(ctx->host, sizeof(ctx->host), "unknown");
    if ((st = vsym_boot_init(&ctx->boot)) != VSYM_OK)
        goto err_free;
    n = ctx->boot.size;
    vsym_util_log_set_identity(ctx->boot.rank, ctx->host);
    vsym_util_wait_policy_init(ctx->boot.local_size);
    if ((st = arena_create(ctx)) != VSYM_OK)
        goto err_boot;

    memset(&mine, 0, sizeof(mine));
    mine.node_id = ctx->boot.node_id;
    mine.local_rank = ctx->boot.local_rank;
    mine.local_size = ctx->boot.local_size;
    mine.pid = (int32_t)getpid();
    mine.arena_size = ctx->arena.size;
    snprintf(mine.host, sizeof(mine.host), "%s", ctx->host);
    all = calloc((size_t)n, sizeof(*all));
    ctx->peers = calloc((size_t)n, sizeof(*ctx->peers));
    if (all == NULL || ctx->peers == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "vsym_init: out of memory");
        goto err_arena;
    }
    if ((st = vsym_boot_allgather(&ctx->boot, NULL, n, "init", &mine, sizeof(mine), all)) !=
        VSYM_OK)
        goto err_arena;
    for (int r = 0; r < n; r++) {
        if (all[r].arena_size != mine.arena_size) {
            st = VSYM_FAIL(VSYM_ERR_MISMATCH,
                           "rank %d has a %llu-byte arena, this rank %llu: set VSYM_HEAP_SIZE "
                           "and VSYM_INTERNAL_SIZE alike on every rank",
                           r, (unsigned long long)all[r].arena_size,
                           (unsigned long long)mine.arena_size);
            goto err_arena;
        }
    }
    assign_nodes(ctx, all, n);
    if ((st = transports_create(ctx)) != VSYM_OK)
        goto err_tp;
    /* Every peer has mapped (or registered) this rank's arena once all have passed this
     * barrier; the memfd is no longer needed. */
    if ((st = vsym_boot_barrier(&ctx->boot)) != VSYM_OK)
        goto err_tp;
    close(ctx->arena.memfd);
    ctx->arena.memfd = -1;

    members = calloc((size_t)n, sizeof(int));
    if (members == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "vsym_init: out of memory");
        goto err_tp;
    }
    for (int r = 0; r < n; r++)
        members[r] = r;
    if ((st = vsym_core_team_create(ctx, members, n, "w", &ctx->world)) != VSYM_OK)
        goto err_tp;
    for (int r = 0; r < n; r++)
        if (ctx->peers[r].node == ctx->peers[ctx->boot.rank].node)
            members[count++] = r;
    char id[32];
    snprintf(id, sizeof(id), "n%d", ctx->peers[ctx->boot.rank].node);
    if ((st = vsym_core_team_create(ctx, members, count, id, &ctx->node)) != VSYM_OK)
        goto err_world;
    free(members);
    free(all);
    vsym_debug("initialised: %d ranks on %d nodes, transport %s", n, ctx->num_nodes,
               vsym_config_str(VSYM_CFG_TRANSPORT));
    *ctx_p = ctx;
    return VSYM_OK;

err_world:
    vsym_core_team_release(ctx->world);
err_tp:
    if (ctx->verbs)
        ctx->verbs->ops->destroy(ctx->verbs);
    if (ctx->shm)
        ctx->shm->ops->destroy(ctx->shm);
    free(ctx->tp_of);
err_arena:
    free(members);
    free(all);
    free(ctx->peers);
    munmap(ctx->arena.base, ctx->arena.size);
    if (ctx->arena.memfd >= 0)
        close(ctx->arena.memfd);
err_boot:
    vsym_boot_finalize(&ctx->boot);
err_free:
    free(ctx);
    return st;
}

VSYM_API vsym_status_t vsym_finalize(vsym_ctx_t *ctx)
{
    vsym_status_t st;
    if (ctx == NULL)
        return VSYM_OK;
    /* Nobody may still be writing into our arena when it goes away. */
    st = vsym_team_barrier(ctx->world, 0);
    /* User objects first, then the teams with their own barrier objects, then what is left of
     * teams the user did not destroy. */
    for (vsym_obj_t *o = ctx->objs, *next; o != NULL; o = next) {
        next = o->next;
        if (!o->is_sync)
            vsym_core_obj_release(o); /* unlinks itself */
    }
    vsym_core_team_release(ctx->node);
    vsym_core_team_release(ctx->world);
    while (ctx->objs != NULL)
        vsym_core_obj_release(ctx->objs);
    while (ctx->bufs != NULL)
        vsym_buffer_unregister(ctx, ctx->bufs->addr);
    if (ctx->verbs)
        ctx->verbs->ops->destroy(ctx->verbs);
    if (ctx->shm)
        ctx->shm->ops->destroy(ctx->shm);
    free(ctx->tp_of);
    free(ctx->peers);
    vsym_core_range_destroy(&ctx->heap);
    vsym_core_range_destroy(&ctx->internal);
    munmap(ctx->arena.base, ctx->arena.size);
    vsym_boot_finalize(&ctx->boot);
    free(ctx);
    return st;
}

VSYM_API vsym_status_t vsym_quiet(vsym_ctx_t *ctx)
{
    vsym_status_t st = VSYM_OK;
    if (ctx->shm && (st = ctx->shm->ops->quiet(ctx->shm, -1)) != VSYM_OK)
        return st;
    if (ctx->verbs)
        st = ctx->verbs->ops->quiet(ctx->verbs, -1);
    return st;
}

VSYM_API vsym_status_t vsym_fence(vsym_ctx_t *ctx)
{
    vsym_status_t st = VSYM_OK;
    if (ctx->shm && (st = ctx->shm->ops->fence(ctx->shm, -1)) != VSYM_OK)
        return st;
    if (ctx->verbs)
        st = ctx->verbs->ops->fence(ctx->verbs, -1);
    return st;
}

VSYM_API int vsym_signal_channels(const vsym_ctx_t *ctx)
{
    return ctx->channels;
}
