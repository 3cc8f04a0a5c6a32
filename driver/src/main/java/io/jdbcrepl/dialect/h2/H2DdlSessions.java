package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.ddl.DdlSessions;

/** H2: DDL commits the open transaction. */
final class H2DdlSessions implements DdlSessions {

    @Override
    public boolean ddlCommits() {
        return true;
    }

    @Override
    public String currentSession() {
        return "SELECT SESSION_ID()";
    }

    @Override
    public String sessionAlive() {
        return "SELECT 1 FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = ?";
    }

    @Override
    public String tableOfIndex() {
        return "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.INDEXES WHERE INDEX_SCHEMA = ? AND INDEX_NAME = ?";
    }
}
