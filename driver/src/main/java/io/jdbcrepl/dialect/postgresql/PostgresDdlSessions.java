package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.ddl.DdlSessions;

/** PostgreSQL's DDL is transactional: its LCR is written in the statement's transaction. */
final class PostgresDdlSessions implements DdlSessions {

    @Override
    public boolean ddlCommits() {
        return false;
    }

    @Override
    public String currentSession() {
        return "SELECT pg_backend_pid()";
    }

    @Override
    public String sessionAlive() {
        return "SELECT 1 FROM pg_stat_activity WHERE pid = CAST(? AS integer)";
    }

    @Override
    public String tableOfIndex() {
        return "SELECT t.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                + " JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = i.relnamespace"
                + " WHERE n.nspname = ? AND i.relname = ?";
    }
}
