/* JSON-lines results writer (see results.h). */
#include "results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct vsym_bench_results {
    char *path; /* NULL for stdout */
    char *text; /* every line of the file, old and new, each ending in '\n' */
    size_t len;
    size_t cap;
};

static int fail(char *err, size_t errlen, const char *what, const char *path)
{
    if (err && errlen)
        snprintf(err, errlen, "%s '%s': %s", what, path ? path : "-", strerror(errno));
    return -1;
}

static int append_text(vsym_bench_results_t *r, const char *s, size_t n)
{
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 1)
            cap *= 2;
        char *t = realloc(r->text, cap);
        if (t == NULL) return -1;
        r->text = t;
        r->cap = cap;
    }
    memcpy(r->text + r->len, s, n);
    r->len += n;
    r->text[r->len] = '\0';
    return 0;
}

/* Read the old file in append mode. A missing file is an empty one; a last line without its
 * newline (written by some other tool) gets one, so the next record starts on its own line. */
static int load_old(vsym_bench_results_t *r, char *err, size_t errlen)
{
    FILE *f = fopen(r->path, "r");
    char buf[65536];
    size_t n;

    if (f == NULL) return errno == ENOENT ? 0 : fail(err, errlen, "cannot read", r->path);
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
        if (append_text(r, buf, n) != 0) {
            fclose(f);
            errno = ENOMEM;
            return fail(err, errlen, "cannot read", r->path);
        }
    }
    fclose(f);
    if (r->len > 0 && r->text[r->len - 1] != '\n') return append_text(r, "\n", 1);
    return 0;
}

int vsym_bench_results_open(const char *path, int append, vsym_bench_results_t **results_p,
                            char *err, size_t errlen)
{
    vsym_bench_results_t *r = calloc(1, sizeof(*r));

    if (r == NULL) {
        errno = ENOMEM;
        return fail(err, errlen, "cannot open", path);
    }
    if (path != NULL && strcmp(path, "-") != 0) {
        r->path = strdup(path);
        if (r->path == NULL) {
            free(r);
            errno = ENOMEM;
            return fail(err, errlen, "cannot open", path);
        }
        if (append && load_old(r, err, errlen) != 0) {
            vsym_bench_results_close(r);
            return -1;
        }
    }
    *results_p = r;
    return 0;
}

/* Write everything to "<path>.tmp.<pid>" in the same folder (rename() is atomic only within
 * one file system), flush it to disk, then rename it over the path. */
static int write_atomic(vsym_bench_results_t *r, char *err, size_t errlen)
{
    size_t tlen = strlen(r->path) + 32;
    char *tmp = malloc(tlen);
    FILE *f;
    int ok;

    if (tmp == NULL) return fail(err, errlen, "cannot write", r->path);
    snprintf(tmp, tlen, "%s.tmp.%ld", r->path, (long)getpid());
    f = fopen(tmp, "w");
    if (f == NULL) {
        fail(err, errlen, "cannot create", tmp);
        free(tmp);
        return -1;
    }
    ok = fwrite(r->text, 1, r->len, f) == r->len;
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, r->path) != 0) {
        fail(err, errlen, "cannot write", r->path);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int vsym_bench_results_add(vsym_bench_results_t *r, const json_t *record, char *err, size_t errlen)
{
    /* JSON_COMPACT keeps a record on one line; jansson escapes newlines inside strings. */
    char *line = json_dumps(record, JSON_COMPACT | JSON_ENSURE_ASCII);

    if (line == NULL) {
        if (err && errlen) snprintf(err, errlen, "cannot encode a record as JSON");
        return -1;
    }
    if (r->path == NULL) {
        printf("%s\n", line);
        fflush(stdout);
        free(line);
        return 0;
    }
    if (append_text(r, line, strlen(line)) != 0 || append_text(r, "\n", 1) != 0) {
        free(line);
        errno = ENOMEM;
        return fail(err, errlen, "cannot write", r->path);
    }
    free(line);
    return write_atomic(r, err, errlen);
}

void vsym_bench_results_close(vsym_bench_results_t *r)
{
    if (r == NULL) return;
    free(r->path);
    free(r->text);
    free(r);
}

const char *vsym_bench_utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;

    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}
