// CFlowSupport: what Swift 6 cannot do safely itself, for FlowSupport: a signal handler that
// only records (plus a self-pipe so a waiting poll wakes on any thread's delivery), and the C
// stdout stream (a mutable glibc global Swift 6 cannot touch), and an HTTP POST through a
// libcurl loaded on first use (variadic C calls), and glibc's mallopt (malloc.h is not in
// Swift's Glibc module). Policy lives in Swift.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Stop signals (SIGINT, SIGTERM, SIGHUP; process-wide, install/restore nest)

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that only record the signal and wake
/// flowrun_wait_readable (no SA_RESTART, so a blocked read returns EINTR). A second SIGINT
/// while the first is not taken yet, or a second SIGTERM/SIGHUP, takes the default action (the
/// process ends at once). A signal that was ignored at the first install (nohup, a background
/// job) stays ignored. Nests with a counter.
void flowrun_stop_signals_install(void);
/// Restores the handlers saved by the matching flowrun_stop_signals_install().
void flowrun_stop_signals_restore(void);
/// Returns 1 and clears the flag if SIGINT arrived since the last call, else 0.
int flowrun_take_interrupt(void);
/// 1 if SIGINT arrived and was not taken yet (the flag stays).
int flowrun_interrupt_pending(void);
/// The first SIGTERM or SIGHUP received (its number), or 0. Never cleared: it ends the command.
int flowrun_termination_signal(void);
/// Wakes flowrun_wait_readable from another thread as a signal would, and marks a wake pending
/// (`run --watch`: the flow file changed while a line was being read). Safe from any thread.
void flowrun_wake(void);
/// Returns 1 and clears the mark if flowrun_wake() was called since the last call, else 0.
int flowrun_take_wake(void);
/// 1 if a wake is pending (the mark stays).
int flowrun_wake_pending(void);
/// Waits until `fd` is readable (or at its end, or failing: the read tells) and returns 1, or
/// returns 0 as soon as a signal arrives (one caught by the handlers above wakes it whatever
/// thread it was delivered to). No race: a signal that arrives before the wait ends it at once.
int flowrun_wait_readable(int fd);
/// flowrun_wait_readable that gives up after `timeout_ms` (-1: never) and then returns -1.
int flowrun_wait_readable_for(int fd, int timeout_ms);

// MARK: - stdio

/// setvbuf(stdout, NULL, _IOLBF, 0).
void flowrun_stdout_set_line_buffered(void);
/// fflush(stdout); returns 0, or EOF with errno set (EPIPE when the reader went away).
int flowrun_stdout_flush(void);
/// fputs(text, stdout) + fflush: stdout is the stream libedit draws on.
void flowrun_stdout_write(const char *text);
/// signal(SIGPIPE, SIG_IGN): writes to a closed pipe fail with EPIPE instead of killing us.
void flowrun_ignore_sigpipe(void);

// MARK: - malloc

/// mallopt(M_MMAP_THRESHOLD, bytes) where glibc has it: blocks of `bytes` or more get pages of
/// their own, and glibc no longer raises the threshold as such blocks are freed. Returns 1 when
/// set, 0 otherwise.
int flowrun_malloc_own_pages_from(int bytes);

// MARK: - HTTP (libcurl, loaded on first use)

#include <stddef.h>

enum {
  FLOWRUN_HTTP_OK = 0,
  FLOWRUN_HTTP_TIMED_OUT = 1,
  FLOWRUN_HTTP_FAILED = 2,
  FLOWRUN_HTTP_UNAVAILABLE = 3,
};

/// POSTs `body` to `url` with `headers` ("Name: value", NULL-terminated), giving up after
/// `timeout_ms`. FLOWRUN_HTTP_OK: `*status` and the answer in `*response` (malloc'd, NUL-ended,
/// `*response_length` bytes; free it). Otherwise the reason is in `error`: a timeout, a failed
/// connection or an answer longer than `response_limit`, or no libcurl on this system.
int flowrun_http_post(const char *url, const char *const *headers, const char *body, size_t body_length,
                      long timeout_ms, size_t response_limit, long *status, char **response,
                      size_t *response_length, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
