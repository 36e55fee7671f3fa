/* The one place where libibverbs and librdmacm errors become vsym statuses.
 *
 * The libraries use three conventions: an errno value returned (ibv_modify_qp, ibv_post_send,
 * ibv_query_port), NULL with errno set (ibv_create_qp, ibv_reg_mr, ibv_open_device), and -1
 * with errno set (librdmacm, ibv_query_gid). Callers reduce each to an errno value
 * (verbs_err_rc, vsym_tp_verbs_err_null, vsym_tp_verbs_err_neg1) and report it here, so the
 * mapping and the hints live in one function. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tp/verbs/verbs.h"

int vsym_tp_verbs_err_null(const void *p)
{
    if (p != NULL)
        return 0;
    /* Some providers return NULL without setting errno. */
    return errno != 0 ? errno : EIO;
}

int vsym_tp_verbs_err_neg1(int rc)
{
    if (rc == 0)
        return 0;
    if (rc == -1)
        return errno != 0 ? errno : EIO;
    return rc < 0 ? -rc : rc;
}

static vsym_status_t errno_status(int err)
{
    switch (err) {
    case ENOMEM:
        return VSYM_ERR_NO_MEMORY;
    case ENODEV:
    case ENXIO:
        return VSYM_ERR_NO_DEVICE;
    case ETIMEDOUT:
        return VSYM_ERR_TIMED_OUT;
    case EOPNOTSUPP:
        return VSYM_ERR_UNSUPPORTED;
    case ECONNREFUSED:
    case ECONNRESET:
    case EHOSTUNREACH:
    case ENETUNREACH:
        return VSYM_ERR_PEER_FAILED;
    default:
        return VSYM_ERR_TRANSPORT;
    }
}

static const char *errno_hint(int err)
{
    switch (err) {
    case ENOMEM:
    case EPERM:
    case EACCES:
        return " (pinning memory: check the locked-memory limit, ulimit -l)";
    case ENODEV:
    case ENXIO:
        return " (the RDMA device is gone or not usable)";
    default:
        return "";
    }
}

vsym_status_t vsym_tp_verbs_check(int err, const char *fmt, ...)
{
    char what[384];
    va_list ap;

    if (err == 0)
        return VSYM_OK;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return VSYM_FAIL(errno_status(err), "verbs: %s: %s (errno %d)%s", what, strerror(err), err,
                     errno_hint(err));
}

vsym_status_t vsym_tp_verbs_wc_status(enum ibv_wc_status status)
{
    switch (status) {
    case IBV_WC_SUCCESS:
        return VSYM_OK;
    case IBV_WC_REM_ACCESS_ERR:
    case IBV_WC_REM_INV_REQ_ERR:
    case IBV_WC_REM_OP_ERR:
        return VSYM_ERR_REMOTE_ACCESS;
    case IBV_WC_RETRY_EXC_ERR:
    case IBV_WC_RNR_RETRY_EXC_ERR:
    case IBV_WC_WR_FLUSH_ERR:
    case IBV_WC_RESP_TIMEOUT_ERR:
    case IBV_WC_REM_ABORT_ERR:
        return VSYM_ERR_PEER_FAILED;
    default:
        return VSYM_ERR_TRANSPORT;
    }
}
