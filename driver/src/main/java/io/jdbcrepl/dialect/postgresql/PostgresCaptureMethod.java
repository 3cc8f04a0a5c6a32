package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.node.CaptureMethod;

/** PostgreSQL: each captured statement is rewritten into one data-modifying CTE; COPY loads. */
final class PostgresCaptureMethod implements CaptureMethod {

    @Override
    public boolean inStatement() {
        return true;
    }

    @Override
    public BulkLoad bulkLoad() {
        return BulkLoad.COPY;
    }
}
