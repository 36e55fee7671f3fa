/* Status strings and the per-thread error detail. */
#include <stdio.h>
#include <string.h>
#include "util/util.h"

static __thread char error_detail[512];

VSYM_API const char *vsym_status_str(vsym_status_t status)
{
    switch (status) {
#define VSYM_STATUS_STR_(name, value, msg)                                                         \
    case name:                                                                                     \
        return msg;
        VSYM_STATUS_LIST(VSYM_STATUS_STR_)
#undef VSYM_STATUS_STR_
    }
    return "unknown status";
}

VSYM_API const char *vsym_status_name(vsym_status_t status)
{
    switch (status) {
#define VSYM_STATUS_NAME_(name, value, msg)                                                        \
    case name:                                                                                     \
        return #name;
        VSYM_STATUS_LIST(VSYM_STATUS_NAME_)
#undef VSYM_STATUS_NAME_
    }
    return "VSYM_ERR_UNKNOWN";
}

VSYM_API const char *vsym_error_detail(void)
{
    return error_detail;
}

static void set_detail(const char *fmt, va_list ap)
{
    vsnprintf(error_detail, sizeof(error_detail), fmt, ap);
}

vsym_status_t vsym_util_fail(vsym_status_t status, const char *file, int line, const char *fmt,
                             ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_detail(fmt, ap);
    va_end(ap);
    if (VSYM_LOG_ERROR <= vsym_util_log_level)
        vsym_util_log(VSYM_LOG_ERROR, file, line, "%s: %s", vsym_status_name(status),
                      error_detail);
    return status;
}

vsym_status_t vsym_util_fail_quiet(vsym_status_t status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_detail(fmt, ap);
    va_end(ap);
    return status;
}
