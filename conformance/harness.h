/* The test harness of the conformance suite: assertions that print file and line and exit,
 * skips that exit 77 with a reason (VSYM_STRICT=1 turns them into failures).
 * Every test is its own process (ctest runs it with a timeout); multi-rank tests are started by
 * launch/vsym-run. */
#ifndef VSYM_HARNESS_H
#define VSYM_HARNESS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vsym/vsym.h>
#include "util/util.h"

#define VSYM_TEST_SKIP_CODE 77

#define VSYM_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);         \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            fflush(stderr);                                                                        \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Seconds on the project's timer (steps' durations in the tests' logs). */
static inline double vsym_test_now(void)
{
    return 1e-9 * (double)vsym_util_time_ns();
}

/* Run call; when print is true, print how long it took and flush, so that a log cut off by a
 * time limit (the VM groups) shows which step the time went to. */
#define VSYM_TEST_STEP(print, call)                                                                \
    do {                                                                                           \
        const double step_t0_ = vsym_test_now();                                                   \
        call;                                                                                      \
        if (print) {                                                                               \
            printf("  (%s: %.1f s)\n", #call, vsym_test_now() - step_t0_);                         \
            fflush(stdout);                                                                        \
        }                                                                                          \
    } while (0)

/* Check that a call returns VSYM_OK; print the status and the detail otherwise. */
#define VSYM_CHECK_OK(expr)                                                                        \
    do {                                                                                           \
        vsym_status_t st_ = (expr);                                                                \
        if (st_ != VSYM_OK) {                                                                      \
            fprintf(stderr, "FAIL %s:%d: %s returned %s (%s): %s\n", __FILE__, __LINE__, #expr,   \
                    vsym_status_name(st_), vsym_status_str(st_), vsym_error_detail());             \
            fflush(stderr);                                                                        \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* True when what is NULL or the detail of the last error contains it. */
static inline int vsym_test_detail_has(const char *what)
{
    return what == NULL || strstr(vsym_error_detail(), what) != NULL;
}

/* Check that a call fails with exactly the given status, and that the detail mentions what. */
#define VSYM_CHECK_STATUS(expr, expected, what)                                                    \
    do {                                                                                           \
        vsym_status_t st_ = (expr);                                                                \
        if (st_ != (expected)) {                                                                   \
            fprintf(stderr, "FAIL %s:%d: %s returned %s, expected %s (%s)\n", __FILE__, __LINE__, \
                    #expr, vsym_status_name(st_), #expected, vsym_error_detail());                 \
            exit(1);                                                                               \
        }                                                                                          \
        if (!vsym_test_detail_has(what)) {                                                         \
            fprintf(stderr, "FAIL %s:%d: detail of %s lacks \"%s\": \"%s\"\n", __FILE__,         \
                    __LINE__, #expr, (const char *)(what), vsym_error_detail());                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Whether VSYM_TEST_SCOPE (unset: full) is name. full: everything. transport: a run that tests a
 * transport (the Soft-RoCE VM groups), where the collective tests cover every algorithm and
 * collective but fewer dtypes, operations and sizes (the arithmetic is the same over every
 * transport and is covered by the full runs). scale (the runs at 7 and 16 ranks): coll_ops leaves
 * out what does not depend on the team's size, the CPU's streaming-store variants (run at 2-4
 * ranks). */
static inline int vsym_test_scope_is(const char *name)
{
    const char *scope = getenv("VSYM_TEST_SCOPE");
    return strcmp(scope != NULL ? scope : "full", name) == 0;
}

/* A collective handle of team made while setting name (a VSYM_ variable) is value: settings are
 * read when the handle is made, so the setting is unset again (and reloaded) before returning. */
static inline void vsym_test_coll_with(vsym_team_t *team, const char *name, const char *value,
                                       vsym_coll_t **c_p)
{
    setenv(name, value, 1);
    VSYM_CHECK_OK(vsym_settings_check());
    VSYM_CHECK_OK(vsym_coll_create(team, c_p));
    unsetenv(name);
    VSYM_CHECK_OK(vsym_settings_check());
}

/* Removes path: a file, or a folder with everything under it. */
static inline void vsym_test_tmp_remove(const char *path)
{
    DIR *d = opendir(path);
    if (d == NULL) {
        unlink(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[512];
        if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) < sizeof(sub))
            vsym_test_tmp_remove(sub);
    }
    closedir(d);
    rmdir(path);
}

/* The temporary paths a test made (vsym_test_tmp_keep), at most 8. */
static inline char (*vsym_test_tmp_paths(void))[256]
{
    static char paths[8][256];
    return paths;
}

static inline void vsym_test_tmp_cleanup(void)
{
    for (int i = 0; i < 8; i++)
        if (vsym_test_tmp_paths()[i][0] != '\0') vsym_test_tmp_remove(vsym_test_tmp_paths()[i]);
}

/* Keep path (a file or folder under /tmp the test just made) to be removed when the process
 * exits, also where a failed check exits at once; removing it before is fine. */
static inline void vsym_test_tmp_keep(const char *path)
{
    static int registered;
    if (!registered) VSYM_CHECK(atexit(vsym_test_tmp_cleanup) == 0, "atexit");
    registered = 1;
    for (int i = 0; i < 8; i++)
        if (vsym_test_tmp_paths()[i][0] == '\0') {
            snprintf(vsym_test_tmp_paths()[i], 256, "%s", path);
            return;
        }
    VSYM_CHECK(0, "more than 8 temporary paths kept");
}

/* Write text into the file at path (made or emptied). */
static inline void vsym_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    VSYM_CHECK(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0, "write %s", path);
}

static inline void vsym_test_skip(const char *reason)
{
    const char *strict = getenv("VSYM_STRICT");
    fprintf(stderr, "SKIP: %s\n", reason);
    fflush(stderr);
    exit(strict && strcmp(strict, "1") == 0 ? 1 : VSYM_TEST_SKIP_CODE);
}

#endif
