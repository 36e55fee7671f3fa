/* Stubs of the transport ops table. */
#include "tp/tp.h"

vsym_status_t vsym_tp_unsupported_mem_reg(vsym_tp_t *tp, void *addr, size_t len, void **memh_p,
                                          uint32_t *rkey_p)
{
    (void)addr;
    (void)len;
    (void)memh_p;
    (void)rkey_p;
    return VSYM_FAIL(VSYM_ERR_UNSUPPORTED, "%s transport cannot register memory",
                     tp->ops->name);
}

vsym_status_t vsym_tp_unsupported_atomic32(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                                           vsym_amo_op_t op, uint32_t value, uint32_t compare,
                                           uint32_t *old_p)
{
    (void)dst;
    (void)op;
    (void)value;
    (void)compare;
    (void)old_p;
    return VSYM_FAIL(VSYM_ERR_UNSUPPORTED, "%s transport has no 32-bit atomics (peer %d)",
                     tp->ops->name, peer);
}
