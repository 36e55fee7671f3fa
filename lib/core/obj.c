/* Symmetric objects: heap allocation, rendezvous of user memory, signal pads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core_internal.h"

#define OBJ_ALIGN 64

/* What each member tells the others about its memory of a new object. */
typedef struct {
    uint64_t size;
    uint64_t heap_off; /* proposed heap offset, UINT64_MAX: no room (or not a heap object) */
    uint64_t pad_off;
    uint64_t addr;
    uint32_t rkey;
    uint32_t flags;
    int32_t status; /* a local failure every member must learn about */
    int32_t unused;
} obj_desc_t;

static int in_arena(const vsym_ctx_t *ctx, const void *p, size_t len)
{
    const char *b = ctx->arena.base;
    const char *c = p;
    return p != NULL && c >= b && c <= b + ctx->arena.size &&
           len <= (size_t)(b + ctx->arena.size - c);
}

static void obj_free_arrays(vsym_obj_t *obj)
{
    free(obj->data);
    free(obj->pads);
    free(obj->peer_ptr);
    free(obj->tp);
    free(obj->amo);
    free(obj);
}

/* What obj_setup makes: a rendezvous of the caller's memory, a heap allocation (the same offset
 * on every member), or a team's own object in each member's internal region. */
enum { OBJ_RENDEZVOUS, OBJ_HEAP, OBJ_INTERNAL };

static vsym_status_t obj_setup(vsym_team_t *team, void *ptr, size_t size, int kind,
                               vsym_obj_t **obj_p)
{
    const int heap = kind == OBJ_HEAP;
    const char *what = heap ? "alloc" : kind == OBJ_INTERNAL ? "team object" : "rendezvous";
    vsym_ctx_t *ctx = team->ctx;
    int n = team->size;
    size_t pad_len = (size_t)ctx->channels * (size_t)n * sizeof(uint64_t);
    vsym_obj_t *obj = calloc(1, sizeof(*obj));
    obj_desc_t mine, *all = calloc((size_t)n, sizeof(obj_desc_t));
    vsym_status_t st = VSYM_OK, local = VSYM_OK;
    size_t hint = 0;
    char who[160];

    if (obj == NULL || all == NULL) {
        free(obj);
        free(all);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "symmetric object: out of memory");
    }
    obj->team = team;
    obj->size = size;
    obj->heap_off = SIZE_MAX;
    obj->pad_off = SIZE_MAX;
    obj->int_off = SIZE_MAX;
    obj->data = calloc((size_t)n, sizeof(*obj->data));
    obj->pads = calloc((size_t)n, sizeof(*obj->pads));
    obj->peer_ptr = calloc((size_t)n, sizeof(*obj->peer_ptr));
    obj->tp = calloc((size_t)n, sizeof(*obj->tp));
    obj->amo = calloc((size_t)n, sizeof(*obj->amo));
    if (!obj->data || !obj->pads || !obj->peer_ptr || !obj->tp || !obj->amo)
        local = VSYM_ERR_NO_MEMORY;

    /* A failure found here is not returned at once: the other members are about to wait in the
     * exchange, so every member goes through it and all fail together. */
    memset(&mine, 0, sizeof(mine));
    if (local == VSYM_OK) {
        size_t off = vsym_core_range_find(&ctx->internal, 0, pad_len, OBJ_ALIGN);
        if (off == SIZE_MAX || vsym_core_range_insert(&ctx->internal, off, pad_len) != VSYM_OK) {
            local = VSYM_ERR_HEAP_EXHAUSTED;
        } else {
            obj->pad_off = off;
            obj->pad = (uint64_t *)(void *)((char *)ctx->arena.base + off);
            memset(obj->pad, 0, pad_len);
        }
    }
    if (kind == OBJ_INTERNAL && local == VSYM_OK && size > 0) {
        size_t off = vsym_core_range_find(&ctx->internal, 0, size, OBJ_ALIGN);
        if (off == SIZE_MAX || vsym_core_range_insert(&ctx->internal, off, size) != VSYM_OK) {
            local = VSYM_ERR_HEAP_EXHAUSTED;
        } else {
            obj->int_off = off;
            ptr = (char *)ctx->arena.base + off;
            memset(ptr, 0, size);
        }
    }
    if (!heap && local == VSYM_OK) {
        obj->ptr = ptr;
        if (ptr == NULL || size == 0 || in_arena(ctx, ptr, size)) {
            mine.flags = VSYM_TP_ADDR_ARENA;
            mine.addr = ptr ? (uint64_t)((char *)ptr - (char *)ctx->arena.base) : 0;
        } else {
            mine.addr = (uint64_t)(uintptr_t)ptr;
            /* Only a team with members over verbs reaches the memory through the NIC. */
            if (ctx->verbs && team->uses_verbs) {
                vsym_status_t rs =
                    ctx->verbs->ops->mem_reg(ctx->verbs, ptr, size, &obj->memh, &mine.rkey);
                if (rs != VSYM_OK) local = rs;
            }
        }
    }
    for (;;) {
        mine.size = size;
        mine.pad_off = obj->pad_off;
        mine.status = local;
        mine.heap_off = UINT64_MAX;
        if (heap && local == VSYM_OK) {
            size_t off = vsym_core_range_find(&ctx->heap, hint, size, OBJ_ALIGN);
            mine.heap_off = off == SIZE_MAX ? UINT64_MAX : off;
            mine.flags = VSYM_TP_ADDR_ARENA;
            mine.addr = mine.heap_off;
        }
        /* A team's own objects go through the bootstrap (the exchange slots are one of them);
         * user objects through the team's exchange slots (a PMIx fence costs milliseconds). */
        st = kind == OBJ_INTERNAL ? vsym_core_exchange(team, &mine, sizeof(mine), all)
                                  : vsym_team_exchange(team, &mine, sizeof(mine), all);
        if (st != VSYM_OK) goto err;
        for (int r = 0; r < n; r++) {
            if (all[r].status != VSYM_OK) {
                st = VSYM_FAIL((vsym_status_t)all[r].status, "%s failed on %s: %s", what,
                               vsym_core_peer_name(team, r, who, sizeof(who)),
                               vsym_status_str((vsym_status_t)all[r].status));
                goto err;
            }
            if (all[r].size != size) {
                st = VSYM_FAIL(VSYM_ERR_MISMATCH,
                               "%s: size %llu on %s differs from %zu on this rank (team rank %d)",
                               what, (unsigned long long)all[r].size,
                               vsym_core_peer_name(team, r, who, sizeof(who)), size, team->rank);
                goto err;
            }
        }
        if (!heap) break;
        /* Agree on one offset that is free on every member: propose the lowest fit at or above
         * the largest proposal until all proposals agree. Proposals only grow, so this ends. */
        uint64_t max = 0;
        int agree = 1;
        for (int r = 0; r < n; r++) {
            if (all[r].heap_off == UINT64_MAX) {
                st =
                    VSYM_FAIL(VSYM_ERR_HEAP_EXHAUSTED,
                              "alloc of %zu bytes: no room in the symmetric heap of %s "
                              "(VSYM_HEAP_SIZE=%zu)",
                              size, vsym_core_peer_name(team, r, who, sizeof(who)), ctx->heap_size);
                goto err;
            }
            if (all[r].heap_off > max) max = all[r].heap_off;
            if (all[r].heap_off != all[0].heap_off) agree = 0;
        }
        if (agree) {
            if ((st = vsym_core_range_insert(&ctx->heap, max, size)) != VSYM_OK) goto err;
            obj->heap_off = max;
            obj->ptr = (char *)ctx->arena.base + max;
            break;
        }
        hint = max;
    }
    for (int r = 0; r < n; r++) {
        int w = team->members[r];
        obj->data[r].addr = all[r].addr;
        obj->data[r].rkey = all[r].rkey;
        obj->data[r].flags = all[r].flags;
        obj->pads[r].addr = all[r].pad_off;
        obj->pads[r].flags = VSYM_TP_ADDR_ARENA;
        obj->tp[r] = ctx->tp_of[w];
        obj->amo[r] = team->uses_verbs ? ctx->verbs : ctx->tp_of[w];
        if (size > 0) obj->peer_ptr[r] = obj->tp[r]->ops->peer_ptr(obj->tp[r], w, &obj->data[r]);
    }
    obj->next = ctx->objs;
    ctx->objs = obj;
    free(all);
    *obj_p = obj;
    return VSYM_OK;
err:
    if (obj->memh) ctx->verbs->ops->mem_dereg(ctx->verbs, obj->memh);
    if (obj->pad_off != SIZE_MAX) vsym_core_range_remove(&ctx->internal, obj->pad_off);
    if (obj->int_off != SIZE_MAX) vsym_core_range_remove(&ctx->internal, obj->int_off);
    obj_free_arrays(obj);
    free(all);
    return st;
}

vsym_status_t vsym_core_obj_create(vsym_team_t *team, size_t internal_size, vsym_obj_t **obj_p)
{
    vsym_status_t st = obj_setup(team, NULL, internal_size, OBJ_INTERNAL, obj_p);
    if (st == VSYM_OK) (*obj_p)->is_sync = 1;
    return st;
}

void vsym_core_obj_release(vsym_obj_t *obj)
{
    vsym_ctx_t *ctx;
    if (obj == NULL) return;
    ctx = obj->team->ctx;
    for (vsym_obj_t **p = &ctx->objs; *p; p = &(*p)->next) {
        if (*p == obj) {
            *p = obj->next;
            break;
        }
    }
    if (obj->memh) ctx->verbs->ops->mem_dereg(ctx->verbs, obj->memh);
    if (obj->heap_off != SIZE_MAX) vsym_core_range_remove(&ctx->heap, obj->heap_off);
    if (obj->pad_off != SIZE_MAX) vsym_core_range_remove(&ctx->internal, obj->pad_off);
    if (obj->int_off != SIZE_MAX) vsym_core_range_remove(&ctx->internal, obj->int_off);
    obj_free_arrays(obj);
}

VSYM_API vsym_status_t vsym_alloc(vsym_team_t *team, size_t size, vsym_obj_t **obj_p)
{
    if (team == NULL || obj_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "alloc: NULL team or obj_p");
    return obj_setup(team, NULL, size, OBJ_HEAP, obj_p);
}

VSYM_API vsym_status_t vsym_rendezvous(vsym_team_t *team, void *buf, size_t size,
                                       vsym_obj_t **obj_p)
{
    if (team == NULL || obj_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "rendezvous: NULL team or obj_p");
    if (buf == NULL && size > 0)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "rendezvous: NULL buffer of %zu bytes", size);
    return obj_setup(team, buf, size, OBJ_RENDEZVOUS, obj_p);
}

VSYM_API vsym_status_t vsym_buffer_register(vsym_ctx_t *ctx, void *addr, size_t len)
{
    if (ctx == NULL || addr == NULL || len == 0)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "buffer_register: %s",
                         ctx == NULL    ? "NULL ctx"
                         : addr == NULL ? "NULL address"
                                        : "0 bytes");
    vsym_core_buf_t *b = calloc(1, sizeof(*b));
    if (b == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "buffer_register: no memory");
    b->addr = addr;
    b->len = len;
    if (ctx->verbs != NULL && !in_arena(ctx, addr, len)) {
        uint32_t rkey;
        vsym_status_t st = ctx->verbs->ops->mem_reg(ctx->verbs, addr, len, &b->memh, &rkey);
        if (st != VSYM_OK) {
            free(b);
            return st;
        }
    }
    b->next = ctx->bufs;
    ctx->bufs = b;
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_buffer_unregister(vsym_ctx_t *ctx, void *addr)
{
    if (ctx == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "buffer_unregister: NULL ctx");
    for (vsym_core_buf_t **p = &ctx->bufs; *p != NULL; p = &(*p)->next) {
        vsym_core_buf_t *b = *p;
        if (b->addr != addr) continue;
        if (b->memh != NULL) ctx->verbs->ops->mem_dereg(ctx->verbs, b->memh);
        *p = b->next;
        free(b);
        return VSYM_OK;
    }
    return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "buffer_unregister: %p is not registered", addr);
}

VSYM_API vsym_status_t vsym_obj_free(vsym_obj_t *obj)
{
    vsym_status_t st;
    if (obj == NULL) return VSYM_OK;
    /* No member may still be reading or writing the object when its memory is reused. */
    st = vsym_team_barrier(obj->team, 0);
    vsym_core_obj_release(obj);
    return st;
}

VSYM_API void *vsym_obj_ptr(const vsym_obj_t *obj)
{
    return obj ? obj->ptr : NULL;
}

VSYM_API size_t vsym_obj_size(const vsym_obj_t *obj)
{
    return obj ? obj->size : 0;
}

VSYM_API vsym_team_t *vsym_obj_team(const vsym_obj_t *obj)
{
    return obj ? obj->team : NULL;
}

VSYM_API size_t vsym_obj_heap_offset(const vsym_obj_t *obj)
{
    return obj ? obj->heap_off : SIZE_MAX;
}

VSYM_API void *vsym_obj_peer_ptr(const vsym_obj_t *obj, int r)
{
    if (obj == NULL || r < 0 || r >= obj->team->size) return NULL;
    return obj->peer_ptr[r];
}
