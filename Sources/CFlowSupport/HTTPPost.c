// One HTTP POST through the system's libcurl, loaded with dlopen on first use: linking
// FoundationNetworking (URLSession) added about 20 ms to every start of flowrun, for a call
// only AppDNA server webhooks make. The few libcurl entry points and option numbers used are
// declared here (they are libcurl's stable ABI), so no curl headers are needed to build.
#include "CFlowSupport.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void CURL;
struct curl_slist;

enum {
  opt_writedata = 10001,
  opt_url = 10002,
  opt_errorbuffer = 10010,
  opt_postfields = 10015,
  opt_httpheader = 10023,
  opt_writefunction = 20011,
  opt_postfieldsize_large = 30120,
  opt_post = 47,
  opt_nosignal = 99,
  opt_timeout_ms = 155,
  info_response_code = 0x200002,
  code_timed_out = 28,
  curl_global_all = 3,
  curl_error_size = 256,
};

static struct {
  int (*global_init)(long);
  CURL *(*easy_init)(void);
  int (*easy_setopt)(CURL *, int, ...);
  int (*easy_perform)(CURL *);
  int (*easy_getinfo)(CURL *, int, ...);
  void (*easy_cleanup)(CURL *);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  const char *(*easy_strerror)(int);
  int loaded;
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void load_curl(void) {
  const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl.4.dylib", "/usr/lib/libcurl.4.dylib"};
  void *handle = NULL;
  for (size_t i = 0; i < sizeof names / sizeof *names && !handle; i++) handle = dlopen(names[i], RTLD_NOW);
  if (!handle) return;
  *(void **)&curl.global_init = dlsym(handle, "curl_global_init");
  *(void **)&curl.easy_init = dlsym(handle, "curl_easy_init");
  *(void **)&curl.easy_setopt = dlsym(handle, "curl_easy_setopt");
  *(void **)&curl.easy_perform = dlsym(handle, "curl_easy_perform");
  *(void **)&curl.easy_getinfo = dlsym(handle, "curl_easy_getinfo");
  *(void **)&curl.easy_cleanup = dlsym(handle, "curl_easy_cleanup");
  *(void **)&curl.slist_append = dlsym(handle, "curl_slist_append");
  *(void **)&curl.slist_free_all = dlsym(handle, "curl_slist_free_all");
  *(void **)&curl.easy_strerror = dlsym(handle, "curl_easy_strerror");
  if (curl.global_init && curl.easy_init && curl.easy_setopt && curl.easy_perform && curl.easy_getinfo
      && curl.easy_cleanup && curl.slist_append && curl.slist_free_all && curl.easy_strerror
      && curl.global_init(curl_global_all) == 0) {
    curl.loaded = 1;
  }
}

struct response_buffer {
  char *bytes;
  size_t length;
  size_t limit;
};

static size_t collect(char *data, size_t size, size_t count, void *context) {
  struct response_buffer *buffer = context;
  size_t n = size * count;
  // Returning less than given makes libcurl stop with a write error.
  if (buffer->length + n > buffer->limit) return 0;
  char *grown = realloc(buffer->bytes, buffer->length + n + 1);
  if (!grown) return 0;
  memcpy(grown + buffer->length, data, n);
  buffer->bytes = grown;
  buffer->length += n;
  buffer->bytes[buffer->length] = 0;
  return n;
}

int flowrun_http_post(const char *url, const char *const *headers, const char *body, size_t body_length,
                      long timeout_ms, size_t response_limit, long *status, char **response,
                      size_t *response_length, char *error, size_t error_size) {
  pthread_once(&curl_once, load_curl);
  *status = 0;
  *response = NULL;
  *response_length = 0;
  if (!curl.loaded) {
    snprintf(error, error_size, "libcurl (libcurl.so.4) could not be loaded");
    return FLOWRUN_HTTP_UNAVAILABLE;
  }
  CURL *handle = curl.easy_init();
  if (!handle) {
    snprintf(error, error_size, "libcurl could not start a request");
    return FLOWRUN_HTTP_FAILED;
  }
  struct curl_slist *list = NULL;
  for (const char *const *header = headers; *header; header++) list = curl.slist_append(list, *header);
  // No `Expect: 100-continue` round trip for larger bodies (URLSession sends none either).
  list = curl.slist_append(list, "Expect:");
  char curl_error[curl_error_size] = {0};
  struct response_buffer buffer = {NULL, 0, response_limit};
  curl.easy_setopt(handle, opt_url, url);
  curl.easy_setopt(handle, opt_post, 1L);
  curl.easy_setopt(handle, opt_postfields, body);
  curl.easy_setopt(handle, opt_postfieldsize_large, (long long)body_length);
  curl.easy_setopt(handle, opt_httpheader, list);
  curl.easy_setopt(handle, opt_timeout_ms, timeout_ms);
  curl.easy_setopt(handle, opt_nosignal, 1L);
  curl.easy_setopt(handle, opt_errorbuffer, curl_error);
  curl.easy_setopt(handle, opt_writefunction, collect);
  curl.easy_setopt(handle, opt_writedata, &buffer);
  int code = curl.easy_perform(handle);
  int outcome = FLOWRUN_HTTP_OK;
  if (code == 0) {
    curl.easy_getinfo(handle, info_response_code, status);
    *response = buffer.bytes;
    *response_length = buffer.length;
    buffer.bytes = NULL;
  } else {
    outcome = code == code_timed_out ? FLOWRUN_HTTP_TIMED_OUT : FLOWRUN_HTTP_FAILED;
    snprintf(error, error_size, "%s", curl_error[0] ? curl_error : curl.easy_strerror(code));
  }
  free(buffer.bytes);
  curl.slist_free_all(list);
  curl.easy_cleanup(handle);
  return outcome;
}
