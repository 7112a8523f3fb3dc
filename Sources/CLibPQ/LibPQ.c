// Loads libpq on first use (see CLibPQ.h for why it is not linked).
#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct flowrun_libpq libpq;
static const struct flowrun_libpq *loaded;
static char load_error[512];
static pthread_once_t libpq_once = PTHREAD_ONCE_INIT;

static void *open_libpq(void) {
  const char *chosen = getenv("FLOWRUN_LIBPQ");
  if (chosen && *chosen) {
    void *handle = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
    if (!handle) snprintf(load_error, sizeof load_error, "%s", dlerror());
    return handle;
  }
  const char *names[] = {"libpq.so.5", "libpq.so", "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",
                         "/usr/local/opt/libpq/lib/libpq.5.dylib"};
  void *handle = NULL;
  for (size_t i = 0; i < sizeof names / sizeof *names && !handle; i++) {
    handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    // The first name's failure is the one worth showing ("libpq.so.5: cannot open ...").
    if (!handle && i == 0) snprintf(load_error, sizeof load_error, "%s", dlerror());
  }
  return handle;
}

// Resolves one function into its table slot; 0 (with the reason kept) when it is missing.
static int resolve(void *handle, void **slot, const char *name) {
  *slot = dlsym(handle, name);
  if (!*slot) snprintf(load_error, sizeof load_error, "%s", dlerror());
  return *slot != NULL;
}

static void load_libpq(void) {
  void *handle = open_libpq();
  if (!handle) return;
  if (resolve(handle, (void **)&libpq.connectdbParams, "PQconnectdbParams")
      && resolve(handle, (void **)&libpq.setNoticeProcessor, "PQsetNoticeProcessor")
      && resolve(handle, (void **)&libpq.status, "PQstatus")
      && resolve(handle, (void **)&libpq.errorMessage, "PQerrorMessage")
      && resolve(handle, (void **)&libpq.finish, "PQfinish")
      && resolve(handle, (void **)&libpq.execParams, "PQexecParams")
      && resolve(handle, (void **)&libpq.resultStatus, "PQresultStatus")
      && resolve(handle, (void **)&libpq.resultErrorMessage, "PQresultErrorMessage")
      && resolve(handle, (void **)&libpq.ntuples, "PQntuples")
      && resolve(handle, (void **)&libpq.nfields, "PQnfields")
      && resolve(handle, (void **)&libpq.getisnull, "PQgetisnull")
      && resolve(handle, (void **)&libpq.getvalue, "PQgetvalue")
      && resolve(handle, (void **)&libpq.clear, "PQclear")) {
    loaded = &libpq;
  }
}

const struct flowrun_libpq *flowrun_libpq_load(char *error, size_t error_size) {
  pthread_once(&libpq_once, load_libpq);
  if (!loaded) snprintf(error, error_size, "%s", load_error);
  return loaded;
}
