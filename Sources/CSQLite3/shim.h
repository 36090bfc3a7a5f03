#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite3_transient(void) { return (sqlite3_destructor_type)-1; }

// sqlite3_db_config is variadic; Swift cannot call it. The options that take an int and an
// int* for the old value (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE and its kin).
static inline int csqlite3_db_config_int(sqlite3 *db, int op, int value) {
    return sqlite3_db_config(db, op, value, (int *)0);
}
