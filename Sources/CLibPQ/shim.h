// The PostgreSQL client library (libpq, Debian: libpq-dev) the CLibPQ system module exposes to
// Swift (FlowStore is its only user).
#include <libpq-fe.h>
