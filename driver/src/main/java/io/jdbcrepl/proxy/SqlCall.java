package io.jdbcrepl.proxy;

import java.sql.SQLException;

/** The real driver's call behind an intercepted execution. */
@FunctionalInterface
interface SqlCall {
    Object call() throws SQLException;
}
