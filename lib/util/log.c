/* Logging to stderr, one line per message, with the rank and host that wrote it. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "util/util.h"

int vsym_util_log_level = VSYM_LOG_WARN;

static char identity[96] = "";

static const char *const level_names[] = {"ERROR", "WARN", "INFO", "DEBUG", "TRACE"};

void vsym_util_log_set_identity(int rank, const char *host)
{
    snprintf(identity, sizeof(identity), "rank %d %s", rank, host ? host : "");
}

void vsym_util_log(vsym_log_level_t level, const char *file, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    const char *base = strrchr(file, '/');
    int n;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* One write per line so that lines of different ranks do not interleave. */
    char out[1400];
    n = snprintf(out, sizeof(out), "[vsym %s%s%d] %s %s:%d: %s\n", identity,
                 identity[0] ? " pid " : "pid ", (int)getpid(), level_names[level],
                 base ? base + 1 : file, line, msg);
    if (n > (int)sizeof(out))
        n = (int)sizeof(out);
    if (write(STDERR_FILENO, out, (size_t)n) < 0) {
        /* Nothing useful to do when stderr is gone. */
    }
}
