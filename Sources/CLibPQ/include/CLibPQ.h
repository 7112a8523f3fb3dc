// CLibPQ: the few libpq (PostgreSQL client) entry points FlowStore calls, reached through a
// table filled by dlopen/dlsym when the first `postgres://` store opens. Linking libpq made
// every flowrun start load 22 more shared libraries (TLS, Kerberos, LDAP, ...) for a store few
// runs use. The declarations follow libpq's stable ABI (libpq.so.5), so no libpq headers are
// needed to build.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma clang assume_nonnull begin

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/// ConnStatusType's CONNECTION_OK and ExecStatusType's PGRES_COMMAND_OK and PGRES_TUPLES_OK.
enum { FLOWRUN_PQ_CONNECTION_OK = 0, FLOWRUN_PQ_COMMAND_OK = 1, FLOWRUN_PQ_TUPLES_OK = 2 };

/// The libpq functions FlowStore uses, under libpq's names less the `PQ` prefix.
struct flowrun_libpq {
  PGconn *_Nullable (*_Nonnull connectdbParams)(const char *_Nullable const *_Nonnull keywords,
                                                const char *_Nullable const *_Nonnull values, int expand_dbname);
  void (*_Nullable (*_Nonnull setNoticeProcessor)(
      PGconn *_Nonnull conn, void (*_Nullable processor)(void *_Nullable, const char *_Nonnull),
      void *_Nullable argument))(void *_Nullable, const char *_Nonnull);
  int (*_Nonnull status)(const PGconn *_Nonnull conn);
  char *_Nonnull (*_Nonnull errorMessage)(const PGconn *_Nonnull conn);
  void (*_Nonnull finish)(PGconn *_Nonnull conn);
  PGresult *_Nullable (*_Nonnull execParams)(PGconn *_Nonnull conn, const char *_Nonnull command, int count,
                                             const unsigned int *_Nullable types,
                                             const char *_Nullable const *_Nullable values,
                                             const int *_Nullable lengths, const int *_Nullable formats,
                                             int resultFormat);
  int (*_Nonnull resultStatus)(const PGresult *_Nullable result);
  char *_Nonnull (*_Nonnull resultErrorMessage)(const PGresult *_Nonnull result);
  int (*_Nonnull ntuples)(const PGresult *_Nullable result);
  int (*_Nonnull nfields)(const PGresult *_Nullable result);
  int (*_Nonnull getisnull)(const PGresult *_Nullable result, int row, int column);
  char *_Nonnull (*_Nonnull getvalue)(const PGresult *_Nullable result, int row, int column);
  void (*_Nonnull clear)(PGresult *_Nullable result);
};

/// Loads libpq once (later calls return the first outcome): the path in FLOWRUN_LIBPQ when set,
/// else libpq.so.5 / libpq.5.dylib from the system's search path or Homebrew's prefixes. NULL
/// when it cannot be loaded or lacks a function; then `error` holds why (dlerror's text).
const struct flowrun_libpq *_Nullable flowrun_libpq_load(char *error, size_t error_size);

#pragma clang assume_nonnull end

#ifdef __cplusplus
}
#endif
