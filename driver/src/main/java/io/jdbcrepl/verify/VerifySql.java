package io.jdbcrepl.verify;

import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * How {@link TableVerifier} reads a table's rows in key order where databases differ: how text is
 * ordered as {@link CanonicalValue} orders it, where NULL sorts, and how a large result is
 * streamed rather than held in memory. A part ({@code dialect.part(VerifySql.class)}).
 */
public interface VerifySql {

    /**
     * The ORDER BY term of a key column of type {@code STRING} or {@code UUID_}, ordering by code
     * point (as {@link CanonicalValue} does) rather than by the column's collation.
     */
    String orderTerm(String quotedColumn, ValueType type);

    /** What follows an ORDER BY term to sort NULL first: "" where the database does so already and has no syntax for it. */
    String nullsFirst();

    /** Whether a result is streamed (with a fetch size) only inside a transaction: the reader leaves auto-commit meanwhile. */
    boolean streamsInTransactionOnly();

    /** The fetch size that streams a result of {@code connection} in batches of about {@code rows} rows. */
    int streamingFetchSize(Connection connection, int rows) throws SQLException;
}
