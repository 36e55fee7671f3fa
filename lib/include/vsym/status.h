/* vsym status codes.
 *
 * Every vsym function that can fail returns a vsym_status_t: 0 (VSYM_OK) is success, negative
 * values are errors. Output arguments are written only on success. When a function fails, a
 * one-line detail naming the problem (the peer rank, the operation, the bad value) is kept for
 * the calling thread and returned by vsym_error_detail(). */
#ifndef VSYM_STATUS_H
#define VSYM_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(VSYM_BUILDING_LIB)
#define VSYM_API __attribute__((visibility("default")))
#else
#define VSYM_API
#endif

/* X(name, value, message): the one list from which the enum and the messages are generated. */
#define VSYM_STATUS_LIST(X)                                                                        \
    X(VSYM_OK, 0, "success")                                                                       \
    X(VSYM_INPROGRESS, 1, "operation in progress")                                                \
    X(VSYM_ERR_INVALID_PARAM, -1, "invalid parameter")                                             \
    X(VSYM_ERR_NO_MEMORY, -2, "out of memory")                                                     \
    X(VSYM_ERR_HEAP_EXHAUSTED, -3, "symmetric heap exhausted")                                     \
    X(VSYM_ERR_BAD_RANK, -4, "rank outside the team")                                              \
    X(VSYM_ERR_BAD_CHANNEL, -5, "signal channel out of range")                                     \
    X(VSYM_ERR_BAD_SIZE, -6, "bad size")                                                           \
    X(VSYM_ERR_OUT_OF_BOUNDS, -7, "access outside the symmetric object")                           \
    X(VSYM_ERR_UNALIGNED, -8, "address not aligned for the operation")                             \
    X(VSYM_ERR_TIMED_OUT, -9, "timed out waiting for a peer")                                      \
    X(VSYM_ERR_MISMATCH, -10, "arguments differ between ranks of a collective call")               \
    X(VSYM_ERR_UNSUPPORTED, -11, "operation not supported by this transport or memory")            \
    X(VSYM_ERR_BOOTSTRAP, -12, "bootstrap (PMIx) failure")                                         \
    X(VSYM_ERR_TRANSPORT, -13, "transport failure")                                                \
    X(VSYM_ERR_REMOTE_ACCESS, -14, "remote access error")                                          \
    X(VSYM_ERR_PEER_FAILED, -15, "peer process failed or is unreachable")                          \
    X(VSYM_ERR_NO_DEVICE, -16, "no usable RDMA device")                                            \
    X(VSYM_ERR_IO, -17, "input/output error")                                                      \
    X(VSYM_ERR_BAD_DTYPE, -18, "unknown or unsupported data type")                                 \
    X(VSYM_ERR_BAD_OP, -19, "unknown or unsupported operation")                                    \
    X(VSYM_ERR_BAD_MODE, -20, "mode not valid for this topology")                                  \
    X(VSYM_ERR_BAD_LAYOUT, -21, "invalid parallel layout")                                         \
    X(VSYM_ERR_BAD_MODEL, -22, "invalid model description")                                        \
    X(VSYM_ERR_BAD_TASK, -23, "invalid or unmatched copy task")                                    \
    X(VSYM_ERR_BAD_STATE, -24, "call not valid in the current state")                              \
    X(VSYM_ERR_NO_RESOURCE, -25, "resources temporarily exhausted, make progress and retry")       \
    X(VSYM_ERR_BUSY, -26, "resource still in use")                                                 \
    X(VSYM_ERR_NOT_FOUND, -27, "not found")

typedef enum vsym_status {
#define VSYM_STATUS_ENUM_(name, value, msg) name = value,
    VSYM_STATUS_LIST(VSYM_STATUS_ENUM_)
#undef VSYM_STATUS_ENUM_
} vsym_status_t;

/* The fixed message of a status ("timed out waiting for a peer"); never NULL. */
VSYM_API const char *vsym_status_str(vsym_status_t status);

/* The symbolic name of a status ("VSYM_ERR_TIMED_OUT"); never NULL. */
VSYM_API const char *vsym_status_name(vsym_status_t status);

/* The detail of the last error reported on the calling thread, e.g.
 * "signal_wait(channel 3): timed out after 2.00 s waiting for rank 1 (world rank 1, node 0, host
 * n1, pid 4242)".
 * Empty string when no error was reported yet. Valid until the thread's next failing call. */
VSYM_API const char *vsym_error_detail(void);

#ifdef __cplusplus
}
#endif
#endif
