// CLibEditShim: small, non-variadic C wrappers around libedit for Swift 6.
//
// Swift cannot call the variadic el_set()/history(), and in Swift 6 mode it cannot touch
// glibc's mutable stdin/stdout/stderr globals, nor write a signal handler that is safe to
// run. Everything that needs one of those lives here; everything else is done in Swift
// (FlowTerminal.LineEditor). Functions return 0 on success and -1 on failure unless noted.
#pragma once

#include <histedit.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Called when Tab is pressed. `owner` is the pointer given to flowrun_el_open.
/// Returns one of libedit's CC_* codes (CC_REFRESH, CC_REDISPLAY, CC_ERROR, ...).
typedef unsigned char (*flowrun_el_complete_fn)(void *owner, EditLine *el);

// MARK: - EditLine

/// el_init() on stdin/stdout/stderr, then: client data (prompt + completion callback),
/// EL_PROMPT, emacs keys, EL_SIGNAL on, an interrupt-aware read function, and Tab bound
/// to a function that calls `complete(owner, el)`. Returns NULL on failure.
/// Also sets LC_CTYPE from the environment so libedit can handle UTF-8 input.
EditLine *flowrun_el_open(const char *program, void *owner, flowrun_el_complete_fn complete);

/// el_end() and frees the client data. NULL is ignored.
void flowrun_el_close(EditLine *el);

/// Copies `prompt`; the prompt callback reads it back through EL_CLIENTDATA.
int flowrun_el_set_prompt(EditLine *el, const char *prompt);
/// Makes the next el_gets give up after `timeout_ms` (-1: never) while nothing is typed: it
/// then returns NULL with errno ETIMEDOUT.
void flowrun_el_set_timeout(int timeout_ms);

/// el_source(el, NULL): reads the user's ~/.editrc (or $EDITRC). Call after the bindings
/// above so the user's file wins.
int flowrun_el_source_editrc(EditLine *el);

/// EL_HIST: attach `h` so that arrow keys and Ctrl-R walk it.
int flowrun_el_attach_history(EditLine *el, History *h);

// MARK: - History

/// history_init() + H_SETSIZE `size` + H_SETUNIQUE `unique`. Returns NULL on failure.
History *flowrun_history_open(int size, int unique);
void flowrun_history_close(History *h);
int flowrun_history_enter(History *h, const char *line);
int flowrun_history_load(History *h, const char *path);
int flowrun_history_save(History *h, const char *path);

// MARK: - Signals (process-wide; install/restore nest with a counter)

/// Installs handlers for SIGWINCH and SIGCONT that only record the signal (no SA_RESTART), and
/// CFlowSupport's for SIGINT, SIGTERM and SIGHUP, so a blocking read in libedit returns and
/// Ctrl-C cancels the line instead of killing the process. The previous handlers are saved.
void flowrun_signals_install(void);
/// Restores the handlers saved by the matching flowrun_signals_install().
void flowrun_signals_restore(void);

// MARK: - Terminal

/// Terminal columns of `fd` from TIOCGWINSZ, or 0 when unknown.
int flowrun_terminal_columns(int fd);

#ifdef __cplusplus
}
#endif
