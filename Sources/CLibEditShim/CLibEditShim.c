// CLibEditShim: see include/CLibEditShim.h. Kept deliberately small; all policy (what to
// complete, when to save history, what a cancelled line means) lives in Swift.
#include "CLibEditShim.h"

#include "CFlowSupport.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

// MARK: - Signals

// SIGINT, SIGTERM and SIGHUP are recorded by CFlowSupport; the editor adds resize and continue.
static volatile sig_atomic_t pending_resize = 0;
static volatile sig_atomic_t pending_continue = 0;

static void record_signal(int signo) {
  switch (signo) {
  case SIGWINCH: pending_resize = 1; break;
  case SIGCONT: pending_continue = 1; break;
  default: break;
  }
}

static const int handled_signals[2] = {SIGWINCH, SIGCONT};
static struct sigaction saved_actions[2];
static int install_depth = 0;  // main-thread only: LineEditor lifetimes nest

void flowrun_signals_install(void) {
  flowrun_stop_signals_install();
  if (install_depth++ > 0) return;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked read() must return EINTR
  for (int i = 0; i < 2; i++) sigaction(handled_signals[i], &action, &saved_actions[i]);
}

void flowrun_signals_restore(void) {
  flowrun_stop_signals_restore();
  if (install_depth == 0 || --install_depth > 0) return;
  for (int i = 0; i < 2; i++) sigaction(handled_signals[i], &saved_actions[i], NULL);
}

// MARK: - EditLine

// What EL_CLIENTDATA points at: one per EditLine, so there is no global prompt buffer.
typedef struct {
  char *prompt;
  void *owner;
  flowrun_el_complete_fn complete;
} flowrun_client;

static flowrun_client *client_of(EditLine *el) {
  flowrun_client *client = NULL;
  if (el_get(el, EL_CLIENTDATA, &client) != 0) return NULL;
  return client;
}

static char *prompt_callback(EditLine *el) {
  static char empty[] = "";
  flowrun_client *client = client_of(el);
  return client && client->prompt ? client->prompt : empty;
}

static unsigned char complete_callback(EditLine *el, int ch) {
  (void)ch;
  flowrun_client *client = client_of(el);
  if (!client || !client->complete) return CC_ERROR;
  return client->complete(client->owner, el);
}

// MARK: - Timeout

// When a read with an empty line gives up (CLOCK_MONOTONIC milliseconds; -1: never). Set per
// el_gets by flowrun_el_set_timeout; main-thread only, like the editor.
static long long read_deadline = -1;

static long long monotonic_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void flowrun_el_set_timeout(int timeout_ms) { read_deadline = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms; }

// How long the next wait may last: -1 for ever, 0 when the deadline has passed. Only while
// nothing is typed: a line being written is never cut off.
static int wait_budget(EditLine *el, size_t pending_bytes) {
  if (read_deadline < 0 || pending_bytes > 0) return -1;
  const LineInfo *line = el_line(el);
  if (line && line->lastchar != line->buffer) return -1;
  long long left = read_deadline - monotonic_ms();
  if (left <= 0) return 0;
  return left > INT_MAX ? INT_MAX : (int)left;
}

// libedit's own read function retries once after EINTR, so Ctrl-C would need two presses.
// This one returns -1/EINTR as soon as SIGINT, SIGTERM or SIGHUP was recorded (el_gets then
// returns NULL with count -1), and handles resize/continue itself so repeated SIGWINCH never
// stops working. It waits with flowrun_wait_readable, which a signal delivered to any thread
// wakes.
static int read_char(EditLine *el, wchar_t *out) {
  char bytes[MB_LEN_MAX];
  size_t count = 0;
  for (;;) {
    if (flowrun_interrupt_pending() || flowrun_termination_signal() != 0 || flowrun_wake_pending()) {
      errno = EINTR;
      *out = L'\0';
      return -1;
    }
    char byte;
    ssize_t n;
    int budget = wait_budget(el, count);
    int ready = budget == 0 ? -1 : flowrun_wait_readable_for(STDIN_FILENO, budget);
    if (ready < 0) {  // the timeout passed with nothing typed: el_gets returns NULL, ETIMEDOUT
      errno = ETIMEDOUT;
      *out = L'\0';
      return -1;
    }
    if (ready == 0) {
      n = -1;
      errno = EINTR;
    } else {
      n = read(STDIN_FILENO, &byte, 1);
    }
    if (n == 0) {
      *out = L'\0';
      return 0;
    }
    if (n < 0) {
      if (errno != EINTR) {
        *out = L'\0';
        return -1;
      }
      if (pending_resize) {  // re-measure only: redrawing here would repeat the prompt
        pending_resize = 0;
        el_resize(el);
      }
      if (pending_continue) {
        pending_continue = 0;
        el_set(el, EL_PREP_TERM, 1);
        el_set(el, EL_REFRESH);
      }
      continue;  // the top of the loop handles SIGINT
    }
    bytes[count++] = byte;
    mbstate_t state;
    memset(&state, 0, sizeof state);
    size_t r = mbrtowc(out, bytes, count, &state);
    if (r == (size_t)-2 && count < MB_LEN_MAX) continue;  // incomplete sequence
    if (r == (size_t)-1 || r == (size_t)-2) {
      count = 0;  // invalid sequence: drop it
      continue;
    }
    return 1;
  }
}

EditLine *flowrun_el_open(const char *program, void *owner, flowrun_el_complete_fn complete) {
  setlocale(LC_CTYPE, "");
  flowrun_client *client = calloc(1, sizeof *client);
  if (!client) return NULL;
  client->owner = owner;
  client->complete = complete;
  EditLine *el = el_init(program, stdin, stdout, stderr);
  if (!el) {
    free(client);
    return NULL;
  }
  el_set(el, EL_CLIENTDATA, client);
  el_set(el, EL_PROMPT, prompt_callback);
  el_set(el, EL_EDITOR, "emacs");
  el_set(el, EL_SIGNAL, 1);
  el_set(el, EL_GETCFN, read_char);
  el_set(el, EL_ADDFN, "flowrun-complete", "Complete the word at the cursor", complete_callback);
  el_set(el, EL_BIND, "^I", "flowrun-complete", NULL);
  return el;
}

void flowrun_el_close(EditLine *el) {
  if (!el) return;
  flowrun_client *client = client_of(el);
  el_end(el);
  if (client) {
    free(client->prompt);
    free(client);
  }
}

int flowrun_el_set_prompt(EditLine *el, const char *prompt) {
  flowrun_client *client = client_of(el);
  if (!client) return -1;
  char *copy = strdup(prompt ? prompt : "");
  if (!copy) return -1;
  free(client->prompt);
  client->prompt = copy;
  return 0;
}

int flowrun_el_source_editrc(EditLine *el) { return el_source(el, NULL); }

int flowrun_el_attach_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }

// MARK: - History

History *flowrun_history_open(int size, int unique) {
  History *h = history_init();
  if (!h) return NULL;
  HistEvent event;
  history(h, &event, H_SETSIZE, size);
  history(h, &event, H_SETUNIQUE, unique);
  return h;
}

void flowrun_history_close(History *h) {
  if (h) history_end(h);
}

int flowrun_history_enter(History *h, const char *line) {
  HistEvent event;
  return history(h, &event, H_ENTER, line) < 0 ? -1 : 0;
}

int flowrun_history_load(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_LOAD, path) < 0 ? -1 : 0;
}

int flowrun_history_save(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_SAVE, path) < 0 ? -1 : 0;
}

// MARK: - Terminal

int flowrun_terminal_columns(int fd) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}
