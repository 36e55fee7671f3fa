/* vsym-bench framework pieces that need no ranks: the JSON-lines writer (every line parses,
 * append keeps the old lines, nothing temporary is left), the latency statistics, and the
 * check pattern. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "bench.h"

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    VSYM_CHECK(d != NULL, "opendir %s", dir);
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Parse every line of path; return the number of lines, check each has "schema": 1. */
static int check_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int n = 0;
    VSYM_CHECK(f != NULL, "open %s", path);
    while (fgets(line, sizeof(line), f) != NULL) {
        json_error_t err;
        json_t *j = json_loads(line, 0, &err);
        VSYM_CHECK(j != NULL, "line %d does not parse: %s: %s", n + 1, err.text, line);
        VSYM_CHECK(json_integer_value(json_object_get(j, "schema")) == 1, "line %d: schema", n);
        json_decref(j);
        n++;
    }
    fclose(f);
    return n;
}

static void test_writer(void)
{
    char dir[] = "/tmp/vsym-bench-unit-XXXXXX", path[256], err[256];
    vsym_bench_results_t *r;
    json_t *rec;
    FILE *f;

    VSYM_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    vsym_test_tmp_keep(dir);
    snprintf(path, sizeof(path), "%s/r.jsonl", dir);

    VSYM_CHECK(vsym_bench_results_open(path, 0, &r, err, sizeof(err)) == 0, "%s", err);
    for (int i = 0; i < 3; i++) {
        /* a newline inside a string must not break the one-record-per-line rule */
        rec = json_pack("{sisiss}", "schema", VSYM_BENCH_SCHEMA, "i", i, "text", "two\nlines");
        VSYM_CHECK(vsym_bench_results_add(r, rec, err, sizeof(err)) == 0, "%s", err);
        json_decref(rec);
        VSYM_CHECK(check_lines(path) == i + 1, "after record %d", i);
    }
    vsym_bench_results_close(r);
    VSYM_CHECK(count_files(dir) == 1, "a temporary file was left in %s", dir);

    /* append: the old lines stay in front, even when the last one lacks its newline */
    f = fopen(path, "a");
    VSYM_CHECK(f != NULL, "reopen");
    fputs("{\"schema\":1,\"i\":99}", f);
    fclose(f);
    VSYM_CHECK(vsym_bench_results_open(path, 1, &r, err, sizeof(err)) == 0, "%s", err);
    rec = json_pack("{sisi}", "schema", VSYM_BENCH_SCHEMA, "i", 100);
    VSYM_CHECK(vsym_bench_results_add(r, rec, err, sizeof(err)) == 0, "%s", err);
    json_decref(rec);
    vsym_bench_results_close(r);
    VSYM_CHECK(check_lines(path) == 5, "append kept %d lines", check_lines(path));

    /* replace mode starts a new file */
    VSYM_CHECK(vsym_bench_results_open(path, 0, &r, err, sizeof(err)) == 0, "%s", err);
    rec = json_pack("{si}", "schema", VSYM_BENCH_SCHEMA);
    VSYM_CHECK(vsym_bench_results_add(r, rec, err, sizeof(err)) == 0, "%s", err);
    json_decref(rec);
    vsym_bench_results_close(r);
    VSYM_CHECK(check_lines(path) == 1, "replace");

    /* a folder that does not exist: a clear error, no crash */
    snprintf(path, sizeof(path), "%s/missing/r.jsonl", dir);
    VSYM_CHECK(vsym_bench_results_open(path, 0, &r, err, sizeof(err)) == 0, "open is lazy");
    rec = json_pack("{si}", "schema", VSYM_BENCH_SCHEMA);
    VSYM_CHECK(vsym_bench_results_add(r, rec, err, sizeof(err)) != 0, "write must fail");
    VSYM_CHECK(strstr(err, "missing") != NULL, "error names the path: %s", err);
    json_decref(rec);
    vsym_bench_results_close(r);

    snprintf(path, sizeof(path), "%s/r.jsonl", dir);
    unlink(path);
    VSYM_CHECK(rmdir(dir) == 0, "rmdir %s", dir);
}

static void test_stats(void)
{
    double v[1000];
    vsym_bench_lat_t lat;

    /* 1000 samples 1000 .. 1999000 ns (shuffled): p99 is the 990th, p99.9 the 999th */
    for (int i = 0; i < 1000; i++)
        v[i] = (double)(((i * 7919) % 1000) + 1) * 1000.0;
    vsym_bench_lat_from_samples(v, 1000, &lat);
    VSYM_CHECK(lat.min == 1.0, "min %g", lat.min);
    VSYM_CHECK(lat.max == 1000.0, "max %g", lat.max);
    VSYM_CHECK(lat.median == 500.5, "median %g", lat.median);
    VSYM_CHECK(lat.avg == 500.5, "avg %g", lat.avg);
    VSYM_CHECK(lat.p99 == 990.0, "p99 %g", lat.p99);
    VSYM_CHECK(lat.p999 == 999.0, "p99.9 %g", lat.p999);
    v[0] = 5000;
    vsym_bench_lat_from_samples(v, 1, &lat);
    VSYM_CHECK(lat.min == 5 && lat.p999 == 5 && lat.median == 5, "one sample");
}

static void test_pattern(void)
{
    unsigned char buf[4096];
    vsym_bench_pattern_fill(buf, sizeof(buf), 17);
    VSYM_CHECK(vsym_bench_pattern_check(buf, sizeof(buf), 17) == 0, "pattern round trip");
    VSYM_CHECK(vsym_bench_pattern_check(buf, sizeof(buf), 18) > 4000, "another seed differs");
    buf[1234] ^= 1;
    VSYM_CHECK(vsym_bench_pattern_check(buf, sizeof(buf), 17) == 1, "one flipped bit");
}

int main(void)
{
    test_writer();
    test_stats();
    test_pattern();
    printf("bench_results: ok\n");
    return 0;
}
