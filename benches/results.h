/* Results writer: JSON lines (one JSON object per line), written with jansson, the project's one
 * JSON library. Shared by vsym-bench, its suites and the peer programs in benches/peers/.
 *
 * Writes are atomic: every added record rewrites the whole file through a temporary file in the
 * same folder and a rename(), so a reader (or a crash) never sees a half-written line. In append
 * mode the file's old lines are read once at open and kept in front of the new ones.
 *
 * This file depends on jansson and libc only (no libvsym), so that programs built with other
 * toolchains (oshcc) can use it too. */
#ifndef VSYM_BENCH_RESULTS_H
#define VSYM_BENCH_RESULTS_H

#include <jansson.h>

/* The schema version of every record ("schema": 1); see results/README.md. */
#define VSYM_BENCH_SCHEMA 1

typedef struct vsym_bench_results vsym_bench_results_t;

/* Open a JSON-lines file. path "-" writes each record to stdout instead (no atomicity needed).
 * append: keep the lines the file already has. Returns 0, or -1 with a message in err (errlen
 * bytes). */
int vsym_bench_results_open(const char *path, int append, vsym_bench_results_t **results_p,
                            char *err, size_t errlen);

/* Add a record (a JSON object) and rewrite the file atomically. Does not steal the reference.
 * Returns 0, or -1 with a message in err. */
int vsym_bench_results_add(vsym_bench_results_t *results, const json_t *record, char *err,
                           size_t errlen);

/* Close; the file already holds every added record. NULL is a no-op. */
void vsym_bench_results_close(vsym_bench_results_t *results);

/* The current UTC time as ISO 8601 ("2026-11-22T00:17:03Z") into buf (at least 21 bytes). */
const char *vsym_bench_utc_now(char *buf, size_t len);

#endif
