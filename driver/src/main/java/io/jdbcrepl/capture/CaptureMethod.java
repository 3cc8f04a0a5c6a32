package io.jdbcrepl.capture;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * How a database's statements are captured, chosen per database: a part
 * ({@code dialect.part(CaptureMethod.class)}), one per database. What varies: whether a statement is
 * rewritten to log its own changes or run with locking reads, the bulk load statement it has, and
 * what a capturing connection must be checked for.
 */
public interface CaptureMethod {

    /**
     * Statements are rewritten into one that changes the rows and logs them in the same snapshot
     * (PostgreSQL's data-modifying CTEs); otherwise they run with locking reads, RETURNING or data
     * change delta tables, in the connection's transaction ({@code capture.locking}).
     */
    boolean inStatement();

    /** The SQL bulk load a database has, which capture stages in a temporary table. */
    enum BulkLoad {
        /** None beyond INSERT … SELECT (H2's CSVREAD), which is captured as it is. */
        NONE,
        /** {@code COPY t … FROM} ({@link io.jdbcrepl.sql.CopyFrom}). */
        COPY,
        /** {@code LOAD DATA … INTO TABLE t} ({@link io.jdbcrepl.sql.LoadData}). */
        LOAD_DATA
    }

    BulkLoad bulkLoad();

    /** Refuses, when a capturing connection opens, a server capture does not work on; by default none. */
    default void check(Connection raw) throws SQLException {
    }

    /**
     * Those of {@code columns} of {@code table} (quoted, qualified) that a load fills from its data but
     * an INSERT only with an override capture does not keep (PostgreSQL's GENERATED ALWAYS identity
     * columns, OVERRIDING SYSTEM VALUE); by default none.
     */
    default List<String> alwaysIdentity(Connection raw, String table, List<String> columns) throws SQLException {
        return List.of();
    }
}
