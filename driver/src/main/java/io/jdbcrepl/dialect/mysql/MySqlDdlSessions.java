package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.ddl.DdlSessions;

/** MariaDB/MySQL: DDL commits implicitly, before and after it runs. */
final class MySqlDdlSessions implements DdlSessions {

    @Override
    public boolean ddlCommits() {
        return true;
    }

    @Override
    public String currentSession() {
        return "SELECT CONNECTION_ID()";
    }

    @Override
    public String sessionAlive() {
        return "SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?";
    }

    @Override
    public String tableOfIndex() {
        return null; // DROP INDEX i ON t
    }
}
