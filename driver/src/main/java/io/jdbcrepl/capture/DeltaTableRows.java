package io.jdbcrepl.capture;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The most rows a query over a data change delta table returns whole, on a database whose
 * {@code LockingCapabilities.deltaTableRowLimit} says a larger one loses rows (H2 2.4). A part; what
 * varies is how the limit is read from the database and its URL.
 */
public interface DeltaTableRows {

    /** The limit for the database behind {@code connection}, opened from {@code url}; {@code Long.MAX_VALUE} when there is none. */
    long limit(Connection connection, String url) throws SQLException;
}
