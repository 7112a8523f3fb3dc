// CFlowSupport: see include/CFlowSupport.h.
#include "CFlowSupport.h"

#include <errno.h>
#include <fcntl.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// MARK: - Stop signals

static volatile sig_atomic_t pending_interrupt = 0;
static volatile sig_atomic_t termination_signal = 0;
static int wake_pipe[2] = {-1, -1};

// The same stop asked for a second time before the first was acted on (Ctrl-C twice while
// `test` finishes its scripts, SIGTERM again while `run` writes its files): the default
// action, at once. Atomic writes make that safe.
static void die_of(int signo) {
  signal(signo, SIG_DFL);
  raise(signo);  // blocked while this handler runs; delivered as it returns
}

static void record_stop_signal(int signo) {
  int saved = errno;
  if (signo == SIGINT) {
    if (pending_interrupt) die_of(signo);
    pending_interrupt = 1;
  } else {
    if (termination_signal != 0) die_of(signo);
    termination_signal = signo;
  }
  if (wake_pipe[1] >= 0) {
    char byte = 1;
    (void)!write(wake_pipe[1], &byte, 1);  // non-blocking: a full pipe already wakes the poll
  }
  errno = saved;
}

static const int stop_signals[3] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction saved_actions[3];
static int install_depth = 0;  // main thread only: the users' lifetimes nest

static int make_wake_pipe(void) {
  if (wake_pipe[0] >= 0) return 0;
  int fds[2];
  if (pipe(fds) != 0) return -1;
  for (int i = 0; i < 2; i++) {
    fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
  }
  wake_pipe[0] = fds[0];
  wake_pipe[1] = fds[1];
  return 0;
}

void flowrun_stop_signals_install(void) {
  if (install_depth++ > 0) return;
  (void)make_wake_pipe();  // without it, reads still return EINTR on the thread signalled
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = record_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked read() must return EINTR
  for (int i = 0; i < 3; i++) {
    sigaction(stop_signals[i], NULL, &saved_actions[i]);
    if (saved_actions[i].sa_handler == SIG_IGN) continue;  // nohup, `cmd &`: leave it ignored
    sigaction(stop_signals[i], &action, NULL);
  }
}

void flowrun_stop_signals_restore(void) {
  if (install_depth == 0 || --install_depth > 0) return;
  for (int i = 0; i < 3; i++) sigaction(stop_signals[i], &saved_actions[i], NULL);
}

int flowrun_take_interrupt(void) {
  int was = pending_interrupt != 0;
  pending_interrupt = 0;
  return was;
}

int flowrun_interrupt_pending(void) { return pending_interrupt != 0; }

int flowrun_termination_signal(void) { return termination_signal; }

static volatile sig_atomic_t pending_wake = 0;

void flowrun_wake(void) {
  pending_wake = 1;
  (void)make_wake_pipe();
  char byte = 1;
  (void)!write(wake_pipe[1], &byte, 1);
}

int flowrun_take_wake(void) {
  int was = pending_wake != 0;
  pending_wake = 0;
  return was;
}

int flowrun_wake_pending(void) { return pending_wake != 0; }

int flowrun_wait_readable(int fd) { return flowrun_wait_readable_for(fd, -1); }

int flowrun_wait_readable_for(int fd, int timeout_ms) {
  struct pollfd fds[2] = {{fd, POLLIN, 0}, {wake_pipe[0], POLLIN, 0}};
  nfds_t count = wake_pipe[0] >= 0 ? 2 : 1;
  int ready = poll(fds, count, timeout_ms);
  if (ready == 0) return -1;
  if (ready < 0) return errno == EINTR ? 0 : 1;  // another failure: let the read report it
  if (count == 2 && fds[1].revents != 0) {
    char bytes[64];
    while (read(wake_pipe[0], bytes, sizeof bytes) > 0) {
    }
    return 0;
  }
  return 1;
}

// MARK: - stdio

void flowrun_stdout_set_line_buffered(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

int flowrun_stdout_flush(void) { return fflush(stdout); }

void flowrun_stdout_write(const char *text) {
  fputs(text, stdout);
  fflush(stdout);
}

void flowrun_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

// MARK: - malloc

int flowrun_malloc_own_pages_from(int bytes) {
#if defined(__GLIBC__)
  return mallopt(M_MMAP_THRESHOLD, bytes);
#else
  (void)bytes;
  return 0;
#endif
}
