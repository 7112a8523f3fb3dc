// The SQLite C API the CSQLite system module exposes to Swift (FlowStore is its only user):
// the system's libsqlite3 (Debian: libsqlite3-dev), which builds in no time.
#include <sqlite3.h>
