package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.capture.CaptureMethod;

/** H2: locking capture with data change delta tables; loads are INSERT … SELECT FROM CSVREAD(…), captured as such. */
final class H2CaptureMethod implements CaptureMethod {

    @Override
    public boolean inStatement() {
        return false;
    }

    @Override
    public BulkLoad bulkLoad() {
        return BulkLoad.NONE;
    }
}
