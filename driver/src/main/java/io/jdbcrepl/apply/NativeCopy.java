package io.jdbcrepl.apply;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A database's own bulk path from one of its databases into another (PostgreSQL's {@code COPY}),
 * which a join's table copy takes instead of reading values and inserting them in batches when
 * the donor and the joining node are the same database and every copied column has the same type
 * on both ({@link TableCopy}).
 */
public interface NativeCopy {

    /** A database without such a path: every table is copied the portable way. */
    NativeCopy NONE = new NativeCopy() {
        @Override
        public boolean exists() {
            return false;
        }

        @Override
        public long copy(Connection donor, String query, Connection local, String table, List<String> columns, Rows progress) {
            throw new IllegalStateException("no native copy for this database");
        }
    };

    /** Told the rows copied so far. */
    interface Rows {
        void copied(long rows) throws SQLException;
    }

    /** Whether this database has one. */
    boolean exists();

    /**
     * Streams the rows of {@code query}, run on {@code donor} in its current transaction, into
     * {@code columns} (quoted) of {@code table} (qualified, quoted) on {@code local}, in its current
     * transaction, holding at most a bounded buffer of rows; returns the rows copied. The caller
     * commits.
     */
    long copy(Connection donor, String query, Connection local, String table, List<String> columns, Rows progress)
            throws SQLException;
}
