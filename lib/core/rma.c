/* One-sided puts, gets, atomics and waits on symmetric objects. */
#include <stdio.h>
#include <string.h>
#include "core/core_internal.h"

static const char *const amo_names[] = {"fetch", "set", "add", "fetch_add", "swap", "cswap"};

/* Check the rank and the range of an access; the common prologue of every RMA call. */
static inline vsym_status_t check_access(const vsym_obj_t *obj, int r, size_t offset, size_t len,
                                         const char *op)
{
    if (__builtin_expect(obj == NULL, 0))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "%s: NULL object", op);
    if (__builtin_expect(r < 0 || r >= obj->team->size, 0))
        return VSYM_FAIL(VSYM_ERR_BAD_RANK, "%s: rank %d outside the team of %d ranks", op, r,
                         obj->team->size);
    if (__builtin_expect(offset > obj->size || len > obj->size - offset, 0))
        return VSYM_FAIL(VSYM_ERR_OUT_OF_BOUNDS,
                         "%s: bytes [%zu, %zu) outside the %zu-byte symmetric object", op, offset,
                         offset + len, obj->size);
    return VSYM_OK;
}

static inline vsym_tp_raddr_t at(const vsym_tp_raddr_t *base, size_t offset)
{
    vsym_tp_raddr_t ra = *base;
    ra.addr += offset;
    return ra;
}

static vsym_status_t do_put(vsym_obj_t *obj, int r, size_t offset, const void *src, size_t len,
                            unsigned flags, const char *op)
{
    vsym_status_t st = check_access(obj, r, offset, len, op);
    if (st != VSYM_OK)
        return st;
    if (len == 0)
        return VSYM_OK;
    if (src == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "%s: NULL source for %zu bytes", op, len);
    if (obj->peer_ptr[r] != NULL) {
        /* Same node, shared memory: a plain copy. Stores are visible to the peer in program
         * order (x86-TSO; vsym_util_copy fences its non-temporal stores). */
        vsym_util_copy((char *)obj->peer_ptr[r] + offset, src, len);
        return VSYM_OK;
    }
    vsym_tp_raddr_t ra = at(&obj->data[r], offset);
    return obj->tp[r]->ops->put(obj->tp[r], obj->team->members[r], &ra, src, len, flags);
}

static vsym_status_t do_get(vsym_obj_t *obj, int r, size_t offset, void *dst, size_t len,
                            unsigned flags, const char *op)
{
    vsym_status_t st = check_access(obj, r, offset, len, op);
    if (st != VSYM_OK)
        return st;
    if (len == 0)
        return VSYM_OK;
    if (dst == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "%s: NULL destination for %zu bytes", op, len);
    if (obj->peer_ptr[r] != NULL) {
        vsym_util_copy(dst, (const char *)obj->peer_ptr[r] + offset, len);
        return VSYM_OK;
    }
    vsym_tp_raddr_t ra = at(&obj->data[r], offset);
    return obj->tp[r]->ops->get(obj->tp[r], obj->team->members[r], &ra, dst, len, flags);
}

VSYM_API vsym_status_t vsym_put(vsym_obj_t *obj, int r, size_t offset, const void *src,
                                size_t len)
{
    return do_put(obj, r, offset, src, len, 0, "put");
}

VSYM_API vsym_status_t vsym_put_nbi(vsym_obj_t *obj, int r, size_t offset, const void *src,
                                    size_t len)
{
    return do_put(obj, r, offset, src, len, VSYM_TP_NBI, "put_nbi");
}

VSYM_API vsym_status_t vsym_get(vsym_obj_t *obj, int r, size_t offset, void *dst, size_t len)
{
    return do_get(obj, r, offset, dst, len, 0, "get");
}

VSYM_API vsym_status_t vsym_get_nbi(vsym_obj_t *obj, int r, size_t offset, void *dst,
                                    size_t len)
{
    return do_get(obj, r, offset, dst, len, VSYM_TP_NBI, "get_nbi");
}

static vsym_status_t amo_fail(const vsym_obj_t *obj, int r, size_t offset, vsym_amo_op_t op,
                              size_t width, const void *old_p)
{
    char name[24];
    vsym_status_t st;
    if ((unsigned)op > VSYM_AMO_CSWAP)
        return VSYM_FAIL(VSYM_ERR_BAD_OP, "atomic%zu: unknown operation %d", width * 8, (int)op);
    snprintf(name, sizeof(name), "atomic%zu %s", width * 8, amo_names[op]);
    if ((st = check_access(obj, r, offset, width, name)) != VSYM_OK)
        return st;
    if (offset % width != 0)
        return VSYM_FAIL(VSYM_ERR_UNALIGNED, "%s: offset %zu is not %zu-byte aligned", name,
                         offset, width);
    if (old_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "%s: NULL old_p for a fetching atomic", name);
    return VSYM_FAIL(VSYM_ERR_UNSUPPORTED,
                     "%s: atomics on same-node peers need symmetric-heap memory (this object "
                     "was made from user memory by rendezvous)",
                     name);
}

/* The checks of every atomic. The common case is tested inline; the message of a failure is
 * built only on the error path (atomics are latency-critical). */
static inline vsym_status_t check_amo(const vsym_obj_t *obj, int r, size_t offset,
                                      vsym_amo_op_t op, size_t width, const void *old_p)
{
    if (__builtin_expect(obj != NULL && (unsigned)op <= VSYM_AMO_CSWAP && r >= 0 &&
                             r < obj->team->size && offset <= obj->size &&
                             width <= obj->size - offset && offset % width == 0 &&
                             (old_p != NULL || op == VSYM_AMO_SET || op == VSYM_AMO_ADD) &&
                             /* CPU atomics need a load/store mapping: memory outside the arena
                              * has none on this node. */
                             ((obj->data[r].flags & VSYM_TP_ADDR_ARENA) ||
                              obj->amo[r] != obj->team->ctx->shm),
                         1))
        return VSYM_OK;
    if (obj == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "atomic: NULL object");
    return amo_fail(obj, r, offset, op, width, old_p);
}

VSYM_API vsym_status_t vsym_atomic64(vsym_obj_t *obj, int r, size_t offset, vsym_amo_op_t op,
                                     uint64_t value, uint64_t compare, uint64_t *old_p)
{
    uint64_t old = 0;
    vsym_status_t st = check_amo(obj, r, offset, op, 8, old_p);
    if (st != VSYM_OK)
        return st;
    vsym_tp_raddr_t ra = at(&obj->data[r], offset);
    st = obj->amo[r]->ops->atomic64(obj->amo[r], obj->team->members[r], &ra, op, value, compare,
                                    &old);
    if (st == VSYM_OK && old_p != NULL)
        *old_p = old;
    return st;
}

VSYM_API vsym_status_t vsym_atomic64_nbi(vsym_obj_t *obj, int r, size_t offset, vsym_amo_op_t op,
                                         uint64_t value, uint64_t compare, uint64_t *old_p)
{
    if (op != VSYM_AMO_FETCH && op != VSYM_AMO_ADD && op != VSYM_AMO_FETCH_ADD &&
        op != VSYM_AMO_CSWAP)
        return VSYM_FAIL(VSYM_ERR_BAD_OP,
                         "atomic64_nbi: operation %d is not FETCH, ADD, FETCH_ADD or CSWAP "
                         "(SET and SWAP are blocking only: vsym_atomic64)",
                         (int)op);
    /* ADD may go without old_p; the others need somewhere to put the old value. */
    vsym_status_t st = check_amo(obj, r, offset, op, 8, old_p);
    if (st != VSYM_OK)
        return st;
    vsym_tp_t *tp = obj->amo[r];
    vsym_tp_raddr_t ra = at(&obj->data[r], offset);
    return tp->ops->atomic64_nbi(tp, obj->team->members[r], &ra, op, value, compare, old_p);
}

VSYM_API vsym_status_t vsym_atomic32(vsym_obj_t *obj, int r, size_t offset, vsym_amo_op_t op,
                                     uint32_t value, uint32_t compare, uint32_t *old_p)
{
    uint32_t old = 0;
    vsym_status_t st = check_amo(obj, r, offset, op, 4, old_p);
    if (st != VSYM_OK)
        return st;
    vsym_tp_raddr_t ra = at(&obj->data[r], offset);
    st = obj->amo[r]->ops->atomic32(obj->amo[r], obj->team->members[r], &ra, op, value, compare,
                                    &old);
    if (st == VSYM_OK && old_p != NULL)
        *old_p = old;
    return st;
}

static int compare(uint64_t v, vsym_cmp_t cmp, uint64_t value)
{
    switch (cmp) {
    case VSYM_CMP_EQ:
        return v == value;
    case VSYM_CMP_NE:
        return v != value;
    case VSYM_CMP_GT:
        return v > value;
    case VSYM_CMP_GE:
        return v >= value;
    case VSYM_CMP_LT:
        return v < value;
    case VSYM_CMP_LE:
        return v <= value;
    }
    return 0;
}

VSYM_API vsym_status_t vsym_wait_until64(vsym_obj_t *obj, size_t offset, vsym_cmp_t cmp,
                                         uint64_t value, double timeout_s)
{
    static const char *const cmp_names[] = {"==", "!=", ">", ">=", "<", "<="};
    vsym_status_t st;
    vsym_backoff_t b;
    const uint64_t *word;
    uint64_t v;

    if (obj == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "wait_until: NULL object");
    if ((unsigned)cmp > VSYM_CMP_LE)
        return VSYM_FAIL(VSYM_ERR_BAD_OP, "wait_until: unknown comparison %d", (int)cmp);
    if ((st = check_access(obj, obj->team->rank, offset, 8, "wait_until")) != VSYM_OK)
        return st;
    if (offset % 8 != 0)
        return VSYM_FAIL(VSYM_ERR_UNALIGNED, "wait_until: offset %zu is not 8-byte aligned",
                         offset);
    word = (const uint64_t *)(const void *)((const char *)obj->ptr + offset);
    vsym_backoff_init(&b, timeout_s);
    /* Acquire: data written before the word was updated is visible once the condition holds. */
    while (!compare(v = __atomic_load_n(word, __ATOMIC_ACQUIRE), cmp, value)) {
        if (!vsym_backoff_step(&b))
            return VSYM_FAIL(VSYM_ERR_TIMED_OUT,
                             "wait_until(offset %zu %s %llu): timed out after %.2f s, the word "
                             "is %llu",
                             offset, cmp_names[cmp], (unsigned long long)value,
                             vsym_backoff_elapsed(&b), (unsigned long long)v);
    }
    return VSYM_OK;
}

static vsym_status_t put_signal(vsym_obj_t *obj, int r, size_t offset, const void *src,
                               size_t len, vsym_obj_t *sig_obj, size_t sig_offset,
                               uint64_t sig_value, vsym_signal_op_t sig_op, unsigned flags,
                               const char *op)
{
    vsym_status_t st;
    if (sig_obj == NULL || (obj && sig_obj->team != obj->team))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "%s: the signal object must belong to the data object's team", op);
    if (sig_op != VSYM_SIGNAL_SET && sig_op != VSYM_SIGNAL_ADD)
        return VSYM_FAIL(VSYM_ERR_BAD_OP, "%s: unknown signal operation %d", op, (int)sig_op);
    if ((st = check_amo(sig_obj, r, sig_offset, VSYM_AMO_SET, 8, NULL)) != VSYM_OK)
        return st;
    if ((st = do_put(obj, r, offset, src, len, flags, op)) != VSYM_OK)
        return st;
    /* The signal must not overtake the data: fence it behind the data when the data travelled
     * through a transport (no-op for load/store copies, which are already ordered). */
    if (obj->peer_ptr[r] == NULL &&
        (st = obj->tp[r]->ops->fence(obj->tp[r], obj->team->members[r])) != VSYM_OK)
        return st;
    /* ADD needs no answer: it travels non-blocking (complete at the target by quiet, like the
     * data), so a NIC does not hold the caller for a round trip. SET is a compare-swap loop on
     * a NIC (verbs has no swap), which must see the old value: blocking. */
    if (sig_op == VSYM_SIGNAL_ADD)
        return vsym_atomic64_nbi(sig_obj, r, sig_offset, VSYM_AMO_ADD, sig_value, 0, NULL);
    return vsym_atomic64(sig_obj, r, sig_offset, VSYM_AMO_SET, sig_value, 0, NULL);
}

VSYM_API vsym_status_t vsym_put_signal(vsym_obj_t *obj, int r, size_t offset, const void *src,
                                       size_t len, vsym_obj_t *sig_obj, size_t sig_offset,
                                       uint64_t sig_value, vsym_signal_op_t sig_op)
{
    return put_signal(obj, r, offset, src, len, sig_obj, sig_offset, sig_value, sig_op, 0,
                      "put_signal");
}

VSYM_API vsym_status_t vsym_put_signal_nbi(vsym_obj_t *obj, int r, size_t offset,
                                           const void *src, size_t len, vsym_obj_t *sig_obj,
                                           size_t sig_offset, uint64_t sig_value,
                                           vsym_signal_op_t sig_op)
{
    return put_signal(obj, r, offset, src, len, sig_obj, sig_offset, sig_value, sig_op,
                      VSYM_TP_NBI, "put_signal_nbi");
}
